import { Type } from '@sinclair/typebox';
import { toMajor } from '../domain/money.js';
import { isoMillis } from '../domain/order.js';
import type { BankAccount, Deposit } from '../store/bank-deposits-repo.js';
import type { BankMutation } from '../store/bank-mutations-repo.js';
import { IsoTime, Money, Nullable } from './schemas.js';

/** Response shapes of deposits, bank accounts and bank mutations, shared by the operator and dashboard APIs. */
export const BankAccountView = Type.Object({
  id: Type.String(), bank: Type.String(), number: Type.String(), holder: Type.String(), active: Type.Boolean(),
});

export const DepositView = Type.Object({
  id: Type.String({ description: 'DEP-…: also the transfer note to write' }),
  reseller_id: Type.String(),
  channel: Type.String({ description: 'bank | gateway' }),
  state: Type.String({ description: 'open | review | paid | expired | cancelled | failed | reversed' }),
  amount: Money('what the wallet gets'),
  payable: Money('the exact amount to transfer (amount + unique code)'),
  unique_code: Nullable(Type.Integer()),
  transfer_note: Type.String({ description: 'write this as the transfer note (berita)' }),
  bank_account: Nullable(BankAccountView),
  sender_name: Nullable(Type.String()),
  expires_at: IsoTime(),
  paid_at: Nullable(IsoTime()),
  matched_by: Nullable(Type.String({ description: 'operator | statement | webhook | gateway' })),
  reference: Nullable(Type.String()),
  created_at: IsoTime(),
});

export const MutationView = Type.Object({
  id: Type.String(), bank_account_id: Type.String(), source: Type.String({ description: 'statement | webhook' }), booked_on: Type.String(),
  description: Type.String(), amount: Money(), direction: Type.String({ description: 'CR | DB' }),
  state: Type.String({ description: 'matched | review | unmatched | assigned | handled | debit' }), deposit_id: Nullable(Type.String()),
  actor: Nullable(Type.String()), note: Nullable(Type.String()), created_at: IsoTime(),
});

export const presentAccount = (a: BankAccount) => ({ id: a.id, bank: a.bank, number: a.number, holder: a.holder, active: a.active });

export function presentDeposit(d: Deposit, decimals: number, accounts: Map<string, BankAccount>) {
  const m = (v: number) => toMajor(v, decimals);
  const account = d.bankAccountId ? accounts.get(d.bankAccountId) : undefined;
  return {
    id: d.id, reseller_id: d.resellerId, channel: d.channel, state: d.state, amount: m(d.amount), payable: m(d.payable), unique_code: d.uniqueCode,
    transfer_note: d.id, bank_account: account ? presentAccount(account) : null, sender_name: d.senderName, expires_at: isoMillis(d.expiresAt),
    paid_at: d.paidAt === null ? null : isoMillis(d.paidAt), matched_by: d.matchedBy, reference: d.reference, created_at: isoMillis(d.createdAt),
  };
}

export const presentMutation = (x: BankMutation, decimals: number) => ({
  id: x.id, bank_account_id: x.bankAccountId, source: x.source, booked_on: x.bookedOn, description: x.description, amount: toMajor(x.amount, decimals),
  direction: x.direction, state: x.state, deposit_id: x.depositId, actor: x.actor, note: x.note, created_at: isoMillis(x.createdAt),
});

export const accountMap = (accounts: BankAccount[]) => new Map(accounts.map((a) => [a.id, a]));
