import { randomUUID } from 'node:crypto';
import { toMajor } from '../domain/money.js';
import { fingerprintOf } from '../services/operator/idempotency.js';
import { CLI_ACTOR } from '../services/operator/actor.js';
import type { WalletChange } from '../services/operator/adjust-wallet.js';
import type { OrderView } from '../services/operator/operator-orders.js';
import { findOrderId, output, parseArgs, withPlatform, type CommandModule } from './support.js';

/**
 * Operator actions from the command line, through the same services as /admin/v1.
 * They are audited with operator_id "cli".
 */

async function operatorAdd(args: string[]) {
  const { positional: [email, ...name], flags, json } = parseArgs<[string, ...string[]]>('operator-add', args);
  await withPlatform(async (p) => {
    const o = await p.operator.operators.create(email, name.join(' '), CLI_ACTOR, flags.roles?.split(','));
    output(json, { id: o.id, email: o.email, roles: o.roles, password: o.password }, `operator ${o.email} added with roles ${o.roles.join(',')}; password (shown once): ${o.password}`);
  });
}

async function operatorRoles(args: string[]) {
  const { positional: [email, roles], json } = parseArgs<[string, string]>('operator-roles', args);
  await withPlatform(async (p) => {
    const o = await p.operator.operators.setRolesByEmail(email, roles.split(','), CLI_ACTOR);
    output(json, { id: o.id, email: o.email, roles: o.roles }, `operator ${o.email} now holds ${o.roles.join(',')}`);
  });
}

async function operatorResetPassword(args: string[]) {
  const { positional: [email], json } = parseArgs<[string]>('operator-reset-password', args);
  await withPlatform(async (p) => {
    const o = await p.operator.operators.resetPasswordByEmail(email, CLI_ACTOR);
    output(json, { id: o.id, email: o.email, password: o.password }, `operator ${o.email}: new password (shown once): ${o.password}; every session of this operator was ended`);
  });
}

async function operatorTwoFactorOff(args: string[]) {
  const { positional: [email], json } = parseArgs<[string]>('operator-two-factor-off', args);
  await withPlatform(async (p) => {
    const o = await p.operator.operators.turnOffTwoFactorByEmail(email, CLI_ACTOR);
    output(json, { id: o.id, email: o.email, was_on: o.wasOn }, o.wasOn ? `operator ${o.email}: two-factor sign-in turned off (enrol again on Security)` : `operator ${o.email} had no two-factor sign-in`);
  });
}

async function resellerCreate(args: string[]) {
  const { positional: [email, ...name], flags, json } = parseArgs<[string, ...string[]]>('reseller-create', args);
  await withPlatform(async (p) => {
    const r = await p.operator.resellers.create({ email, name: name.join(' '), tier: flags.tier, approve: flags.approve === 'true' }, CLI_ACTOR);
    output(json, { id: r.id, email: r.email, name: r.name, tier: r.tier, status: r.status }, `reseller ${r.email} created: ${r.status}, ${r.tier} (id ${r.id})`);
  });
}

async function resellerApprove(args: string[]) {
  const { positional: [email], flags, json } = parseArgs<[string]>('reseller-approve', args);
  await withPlatform(async (p) => {
    const id = await p.operator.resellers.idByEmail(email);
    const r = await p.operator.resellers.approve(id, flags.tier!, CLI_ACTOR);
    output(json, { id: r.id, email: r.email, tier: r.tier, status: r.status }, `reseller ${r.email} approved: ${r.status}, ${r.tier}`);
  });
}

/**
 * Money changes are applied once per idempotency key (scope "cli"): a random one per
 * invocation, or --idempotency-key K to make a retried command safe. Run again with the
 * same key and arguments, it prints the first result instead of applying it again.
 */
function idempotent(flags: Record<string, string>, parts: unknown[]) {
  return { key: flags['idempotency-key'] ?? randomUUID(), fingerprint: fingerprintOf(parts) };
}
const replayNote = (replayed: boolean) => (replayed ? ' (already applied with this --idempotency-key; nothing changed now)' : '');

async function resellerInvite(args: string[]) {
  const { positional: [email], json } = parseArgs<[string]>('reseller-invite', args);
  await withPlatform(async (p) => {
    const i = await p.operator.invitations.create(await p.operator.resellers.idByEmail(email), CLI_ACTOR);
    const expires = new Date(i.expiresAt).toISOString();
    output(json, { id: i.id, reseller_id: i.resellerId, email: i.email, token: i.token, link: i.link, expires_at: expires },
      `invitation for ${i.email} (shown once; valid until ${expires}; earlier open invitations are revoked):\n  ${i.link}`);
  });
}

function walletCommand(kind: 'credit' | 'debit') {
  return async (args: string[]) => {
    const { positional: [email, amount], flags, json } = parseArgs<[string, string]>(kind, args);
    await withPlatform(async (p) => {
      const id = await p.operator.resellers.idByEmail(email);
      const major = (m: number) => toMajor(m, p.core.currency.decimals);
      const { data, replayed } = await p.operator.idempotency.run(CLI_ACTOR, idempotent(flags, [kind, id, amount, flags.note]),
        (claim) => p.operator.wallet[kind](id, amount, flags.note!, CLI_ACTOR, claim),
        ({ entry }: WalletChange) => ({ reseller_id: id, entry_id: String(entry.id), type: entry.type, amount: major(entry.amount), balance: major(entry.balanceAfter) }));
      output(json, { ...data, replayed },
        `${kind} of ${Math.abs(data.amount)} ${p.core.currency.code} for ${email}; balance now ${data.balance}${replayNote(replayed)}`);
    });
  };
}

async function refund(args: string[]) {
  const { positional: [order], flags, json } = parseArgs<[string]>('refund', args);
  await withPlatform(async (p) => {
    const orderId = await findOrderId(p, order);
    const major = (m: number) => toMajor(m, p.core.currency.decimals);
    const { data, replayed } = await p.operator.idempotency.run(CLI_ACTOR, idempotent(flags, ['refund', orderId, flags.note]),
      (claim) => p.operator.orders.refund(orderId, flags.note!, CLI_ACTOR, claim),
      (r: OrderView) => {
        const entry = r.ledger.find((e) => e.type === 'order_refund')!;
        return { order_id: orderId, status: r.order.status, refunded: major(entry.amount), balance: major(entry.balanceAfter) };
      });
    output(json, { ...data, replayed },
      `order ${orderId} refunded: ${data.refunded} ${p.core.currency.code} back to the reseller (balance ${data.balance})${replayNote(replayed)}`);
  });
}

export const operatorCommands: CommandModule = {
  'operator-add': operatorAdd,
  'operator-reset-password': operatorResetPassword,
  'operator-roles': operatorRoles,
  'operator-two-factor-off': operatorTwoFactorOff,
  'reseller-create': resellerCreate,
  'reseller-approve': resellerApprove,
  'reseller-invite': resellerInvite,
  credit: walletCommand('credit'),
  debit: walletCommand('debit'),
  refund,
};
