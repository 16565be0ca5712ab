import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.js';

export interface GatewaySettingsRow {
  environment: string;
  serverKeySealed: string | null;
  clientKey: string | null;
  expiryMinutes: number;
  updatedAt: number;
}

export interface MethodRow {
  code: string; enabled: boolean; minAmount: number; maxAmount: number; feeFixed: number; feeBps: number; feeMode: string; updatedAt: number;
}

export interface NotificationRow {
  id: string; receivedAt: number; orderId: string | null; depositId: string | null; transactionStatus: string | null;
  signatureValid: boolean; confirmedStatus: string | null; outcome: string; body: string;
}

export interface GatewayDepositRow {
  id: string; resellerId: string; resellerName: string; state: string; amount: number; fee: number; payable: number; method: string | null;
  gatewayOrderId: string | null; gatewayUrl: string | null; expiresAt: number; paidAt: number | null; reference: string | null;
  createdAt: number; updatedAt: number;
}

const SETTINGS_ID = 'midtrans';

/** The payment gateway's settings, methods and notification log (migration 038). Built on a connection or a transaction. */
export class GatewayRepo {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  async settings(): Promise<GatewaySettingsRow | null> {
    const r = await this.db.selectFrom('gateway_settings').selectAll().where('id', '=', SETTINGS_ID).executeTakeFirst();
    return r ? { environment: r.environment, serverKeySealed: r.server_key_sealed, clientKey: r.client_key, expiryMinutes: Number(r.expiry_minutes), updatedAt: Number(r.updated_at) } : null;
  }

  async saveSettings(s: GatewaySettingsRow): Promise<void> {
    const values = { environment: s.environment, server_key_sealed: s.serverKeySealed, client_key: s.clientKey, expiry_minutes: s.expiryMinutes, updated_at: s.updatedAt };
    await this.db.insertInto('gateway_settings').values({ id: SETTINGS_ID, ...values }).onConflict((oc) => oc.column('id').doUpdateSet(values)).execute();
  }

  async methods(): Promise<MethodRow[]> {
    const rows = await this.db.selectFrom('payment_methods').selectAll().execute();
    return rows.map((r) => ({
      code: r.code, enabled: Number(r.enabled) === 1, minAmount: Number(r.min_amount), maxAmount: Number(r.max_amount), feeFixed: Number(r.fee_fixed),
      feeBps: Number(r.fee_bps), feeMode: r.fee_mode, updatedAt: Number(r.updated_at),
    }));
  }

  async saveMethod(m: MethodRow): Promise<void> {
    const values = { enabled: m.enabled ? 1 : 0, min_amount: m.minAmount, max_amount: m.maxAmount, fee_fixed: m.feeFixed, fee_bps: m.feeBps, fee_mode: m.feeMode, updated_at: m.updatedAt };
    await this.db.insertInto('payment_methods').values({ code: m.code, ...values }).onConflict((oc) => oc.column('code').doUpdateSet(values)).execute();
  }

  async logNotification(n: NotificationRow): Promise<void> {
    await this.db.insertInto('gateway_notifications').values({
      id: n.id, received_at: n.receivedAt, order_id: n.orderId, deposit_id: n.depositId, transaction_status: n.transactionStatus,
      signature_valid: n.signatureValid ? 1 : 0, confirmed_status: n.confirmedStatus, outcome: n.outcome, body: n.body,
    }).execute();
  }

  /** Oldest first: the order they arrived in. */
  async notificationsOf(depositId: string): Promise<NotificationRow[]> {
    const rows = await this.db.selectFrom('gateway_notifications').selectAll().where('deposit_id', '=', depositId).orderBy('received_at').orderBy('id').execute();
    return rows.map(toNotification);
  }

  /** Notifications that matched no deposit (signed ones for orders of others), newest first. */
  async unmatchedNotifications(limit: number): Promise<NotificationRow[]> {
    const rows = await this.db.selectFrom('gateway_notifications').selectAll().where('deposit_id', 'is', null).orderBy('received_at', 'desc').limit(limit).execute();
    return rows.map(toNotification);
  }

  async depositByOrderId(orderId: string) {
    return this.db.selectFrom('deposits').selectAll().where('gateway_order_id', '=', orderId).where('channel', '=', 'gateway').executeTakeFirst();
  }

  async deposit(id: string): Promise<GatewayDepositRow | null> {
    const r = await this.depositQuery().where('deposits.id', '=', id).executeTakeFirst();
    return r ? toDeposit(r) : null;
  }

  /** Gateway deposits, newest first, optionally of one state or reseller. */
  async deposits(q: { state: string | null; resellerId: string | null; limit: number; offset: number }): Promise<{ items: GatewayDepositRow[]; total: number }> {
    let base = this.db.selectFrom('deposits').where('deposits.channel', '=', 'gateway');
    if (q.state) base = base.where('deposits.state', '=', q.state);
    if (q.resellerId) base = base.where('deposits.reseller_id', '=', q.resellerId);
    const [rows, count] = await Promise.all([
      this.depositQuery(q).orderBy('deposits.created_at', 'desc').orderBy('deposits.id').limit(q.limit).offset(q.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { items: rows.map(toDeposit), total: Number(count?.n ?? 0) };
  }

  private depositQuery(q: { state?: string | null; resellerId?: string | null } = {}) {
    let s = this.db.selectFrom('deposits').innerJoin('resellers', 'resellers.id', 'deposits.reseller_id').where('deposits.channel', '=', 'gateway');
    if (q.state) s = s.where('deposits.state', '=', q.state);
    if (q.resellerId) s = s.where('deposits.reseller_id', '=', q.resellerId);
    return s.select([
      'deposits.id', 'deposits.reseller_id', 'resellers.name as reseller_name', 'deposits.state', 'deposits.amount', 'deposits.fee', 'deposits.payable', 'deposits.method',
      'deposits.gateway_order_id', 'deposits.gateway_url', 'deposits.expires_at', 'deposits.paid_at', 'deposits.reference', 'deposits.created_at', 'deposits.updated_at',
    ]);
  }
}

function toNotification(r: { id: string; received_at: number; order_id: string | null; deposit_id: string | null; transaction_status: string | null; signature_valid: number; confirmed_status: string | null; outcome: string; body: string }): NotificationRow {
  return {
    id: r.id, receivedAt: Number(r.received_at), orderId: r.order_id, depositId: r.deposit_id, transactionStatus: r.transaction_status,
    signatureValid: Number(r.signature_valid) === 1, confirmedStatus: r.confirmed_status, outcome: r.outcome, body: r.body,
  };
}

function toDeposit(r: any): GatewayDepositRow {
  return {
    id: r.id, resellerId: r.reseller_id, resellerName: r.reseller_name, state: r.state, amount: Number(r.amount), fee: Number(r.fee), payable: Number(r.payable),
    method: r.method, gatewayOrderId: r.gateway_order_id, gatewayUrl: r.gateway_url, expiresAt: Number(r.expires_at), paidAt: r.paid_at === null ? null : Number(r.paid_at),
    reference: r.reference, createdAt: Number(r.created_at), updatedAt: Number(r.updated_at),
  };
}
