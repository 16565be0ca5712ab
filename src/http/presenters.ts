import { toMajor } from '../domain/money.js';
import { isoMillis, orderCode, ORDER_ACCEPTED_MESSAGE, type OrderRecord } from '../domain/order.js';
import type { CatalogProduct, FormField } from '../store/catalog-repo.js';
import type { CallbacksRepo } from '../store/callbacks-repo.js';
import type { LedgerEntry } from '../store/ledger-repo.js';
import { ledgerSource, publicLedgerType } from '../domain/ledger-types.js';

type CallbackLog = Awaited<ReturnType<CallbacksRepo['log']>>;

/** JSON shapes of the reseller API: the contract, in one place. Money leaves in major units. */
export function presenters(decimals: number) {
  const money = (minor: number) => toMajor(minor, decimals);
  return {
    product: (p: CatalogProduct) => ({
      code: p.code,
      name: p.name,
      category: p.categoryName,
      category_slug: p.categorySlug,
      price: money(p.price),
      status: p.routable ? 'active' : 'inactive',
      type: p.kind,
    }),
    category: (c: { slug: string; name: string; type: string; checkerEnabled: boolean; form: FormField[] }) => ({
      slug: c.slug,
      name: c.name,
      type: c.type,
      validation_supported: c.checkerEnabled,
      form: c.type === 'voucher' ? [] : c.form.map((f) => ({
        name: f.name,
        label: f.label,
        role: f.role,
        type: f.type,
        required: f.required ?? true,
        ...(f.placeholder ? { placeholder: f.placeholder } : {}),
        ...(f.options ? { options: f.options.map((o) => ({ value: o.value, label: o.label })) } : {}),
      })),
    }),
    orderCreated: (o: OrderRecord) => ({
      order_id: o.id,
      order_code: orderCode(o.id),
      ref_id: o.refId,
      product_name: o.productName,
      price: money(o.price),
      status: o.status,
      message: ORDER_ACCEPTED_MESSAGE,
    }),
    order: (o: OrderRecord) => ({
      order_id: o.id,
      order_code: orderCode(o.id),
      ref_id: o.refId,
      product_code: o.productCode,
      product_name: o.productName,
      target_id: o.target,
      zone_id: o.zone,
      price: money(o.price),
      status: o.status,
      serial_number: o.status === 'success' ? o.serialNumber : null,
      created_at: isoMillis(o.createdAt),
      completed_at: o.completedAt === null ? null : isoMillis(o.completedAt),
      failure_code: o.failureCode,
      failure_reason: o.failureReason,
    }),
    ledgerEntry: (e: LedgerEntry) => ({
      id: String(e.id),
      type: publicLedgerType(e.type),
      source: ledgerSource(e.type),
      deposit_code: e.depositId,
      amount: money(e.amount),
      balance_after: money(e.balanceAfter),
      order_id: e.orderId,
      order_code: e.orderId ? orderCode(e.orderId) : null,
      ref_id: e.refId,
      note: e.note,
      created_at: isoMillis(e.createdAt),
    }),
    callbackLog: (o: OrderRecord, deliveries: CallbackLog) => ({
      ref_id: o.refId,
      order_code: orderCode(o.id),
      deliveries: deliveries.map((d) => ({
        callback_id: d.id,
        round: d.round,
        status: d.status,
        url: d.url,
        attempts: d.attempts,
        next_attempt_at: d.next_attempt_at === null ? null : isoMillis(Number(d.next_attempt_at)),
        attempt_log: d.attempt_log.map((a) => ({
          attempt: a.attempt,
          started_at: isoMillis(Number(a.started_at)),
          duration_ms: a.duration_ms,
          http_status: a.http_status,
          error: a.error,
          response_snippet: a.response_snippet,
        })),
      })),
    }),
    money,
  };
}
export type Presenters = ReturnType<typeof presenters>;
