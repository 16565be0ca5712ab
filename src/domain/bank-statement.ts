import { createHash } from 'node:crypto';
import { AppError } from '../errors.js';

/**
 * A bank statement export read through the column mapping its bank account keeps: which
 * header holds the date, the description, the amount (signed, or with a CR/DB mark) or a
 * credit and a debit column, and optionally the bank's own id of each line.
 */
export interface StatementMapping {
  date: string;
  description: string;
  amount?: string | null;
  credit?: string | null;
  debit?: string | null;
  mutationId?: string | null;
  /** The decimal separator of amounts: '.' (1,000,123.00) or ',' (1.000.123,00). */
  decimal: '.' | ',';
  delimiter: ',' | ';' | '\t';
}

export interface StatementLine {
  /** 1-based row number in the file, after the header. */
  row: number;
  identity: string;
  date: string;
  description: string;
  /** Minor units, > 0. */
  amount: number;
  direction: 'CR' | 'DB';
}

export function validateMapping(m: StatementMapping): StatementMapping {
  const bad = (msg: string) => new AppError('VALIDATION_ERROR', msg);
  if (!m.date.trim() || !m.description.trim()) throw bad('mapping needs the date and description columns');
  if (!m.amount && !m.credit) throw bad('mapping needs an amount column, or a credit column (and optionally a debit column)');
  if (m.amount && (m.credit || m.debit)) throw bad('mapping takes either an amount column or credit/debit columns, not both');
  return m;
}

/**
 * An amount as a bank writes it ("Rp 1.000.123,00", "1,000,123.00 CR", "-50000") in minor
 * units with its sign; null when it is no amount. CR/DB marks win over a sign.
 */
export function parseBankAmount(raw: string, decimal: '.' | ',', decimals: number): { minor: number; direction: 'CR' | 'DB' } | null {
  let s = raw.trim().toUpperCase();
  if (!s) return null;
  let direction: 'CR' | 'DB' | null = null;
  const mark = /\s*(CR|DB|D|K|C)$/.exec(s);
  if (mark) {
    direction = mark[1] === 'DB' || mark[1] === 'D' ? 'DB' : 'CR';
    s = s.slice(0, mark.index);
  }
  s = s.replace(/^RP\.?\s*/, '').replace(/\s/g, '');
  let negative = false;
  if (s.startsWith('-')) { negative = true; s = s.slice(1); }
  if (s.startsWith('(') && s.endsWith(')')) { negative = true; s = s.slice(1, -1); }
  const thousands = decimal === '.' ? ',' : '.';
  s = s.split(thousands).join('');
  const [whole, frac = '', ...rest] = s.split(decimal);
  if (rest.length || !/^\d+$/.test(whole ?? '') || !/^\d*$/.test(frac)) return null;
  const trimmed = frac.replace(/0+$/, '');
  if (trimmed.length > decimals) return null;
  const minor = Number(whole + trimmed.padEnd(decimals, '0'));
  if (!Number.isSafeInteger(minor)) return null;
  return { minor, direction: direction ?? (negative ? 'DB' : 'CR') };
}

/** A line without the bank's id: account, date, description, amount and which same line it is in the file. */
export function lineHash(bankAccountId: string, date: string, description: string, amount: number, direction: string, occurrence: number): string {
  return `h:${createHash('sha256').update(JSON.stringify([bankAccountId, date, description, amount, direction, occurrence])).digest('hex').slice(0, 40)}`;
}

export const bankIdIdentity = (id: string) => `id:${id}`;

/**
 * The lines of a parsed statement (rows as header → cell). Rows with no amount (opening
 * balance, totals) are skipped; a row whose amount cannot be read is an error naming it.
 */
export function statementLines(bankAccountId: string, rows: Record<string, string>[], m: StatementMapping, decimals: number): StatementLine[] {
  const out: StatementLine[] = [];
  const seen = new Map<string, number>();
  const cell = (r: Record<string, string>, col: string | null | undefined) => (col ? (r[col] ?? '').trim() : '');
  rows.forEach((r, i) => {
    const row = i + 1;
    const date = cell(r, m.date);
    const description = cell(r, m.description).replace(/\s+/g, ' ');
    let parsed: { minor: number; direction: 'CR' | 'DB' } | null = null;
    if (m.amount) {
      const raw = cell(r, m.amount);
      if (!raw) return;
      parsed = parseBankAmount(raw, m.decimal, decimals);
      if (!parsed) throw new AppError('VALIDATION_ERROR', `row ${row}: "${raw}" in column ${m.amount} is not an amount`);
    } else {
      const cr = cell(r, m.credit);
      const db = cell(r, m.debit);
      const c = cr ? parseBankAmount(cr, m.decimal, decimals) : null;
      const d = db ? parseBankAmount(db, m.decimal, decimals) : null;
      if ((cr && !c) || (db && !d)) throw new AppError('VALIDATION_ERROR', `row ${row}: the credit or debit cell is not an amount`);
      if (c && c.minor > 0) parsed = { minor: c.minor, direction: 'CR' };
      else if (d && d.minor > 0) parsed = { minor: d.minor, direction: 'DB' };
    }
    if (!parsed || parsed.minor === 0) return;
    if (!date) throw new AppError('VALIDATION_ERROR', `row ${row}: no date in column ${m.date}`);
    const bankId = cell(r, m.mutationId);
    let identity: string;
    if (bankId) identity = bankIdIdentity(bankId);
    else {
      const key = JSON.stringify([date, description, parsed.minor, parsed.direction]);
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      identity = lineHash(bankAccountId, date, description, parsed.minor, parsed.direction, n);
    }
    out.push({ row, identity, date, description, amount: parsed.minor, direction: parsed.direction });
  });
  return out;
}

/** One mutation of a Moota-shaped webhook body, checked. */
export interface PushedMutation {
  mutationId: string;
  bankId: string | null;
  accountNumber: string | null;
  date: string;
  description: string;
  amount: number;
  direction: 'CR' | 'DB';
}

/** The body: an array of mutations (or {data: [...]}) as Moota posts them; amounts in major units. */
export function parseMutationPush(body: unknown, decimals: number): PushedMutation[] {
  const list = Array.isArray(body) ? body : body && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data) ? (body as { data: unknown[] }).data : null;
  if (!list) throw new AppError('VALIDATION_ERROR', 'the body must be an array of mutations');
  if (list.length > 1000) throw new AppError('VALIDATION_ERROR', 'at most 1000 mutations a delivery');
  return list.map((raw, i) => {
    const m = (raw ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
    const id = str(m.mutation_id);
    if (!id || id.length > 200) throw new AppError('VALIDATION_ERROR', `mutation ${i}: mutation_id is required`);
    const type = str(m.type).toUpperCase();
    if (type !== 'CR' && type !== 'DB') throw new AppError('VALIDATION_ERROR', `mutation ${i}: type must be CR or DB`);
    const amount = parseBankAmount(str(m.amount), '.', decimals);
    if (!amount || amount.minor <= 0) throw new AppError('VALIDATION_ERROR', `mutation ${i}: amount must be a positive number`);
    const bankId = str(m.bank_id) || null;
    const accountNumber = str(m.account_number) || null;
    if (!bankId && !accountNumber) throw new AppError('VALIDATION_ERROR', `mutation ${i}: bank_id or account_number is required`);
    return { mutationId: id, bankId, accountNumber, date: str(m.date).slice(0, 40), description: str(m.description).slice(0, 500), amount: amount.minor, direction: type };
  });
}
