import type { Transaction } from 'kysely';
import { utcDayStart } from '../../domain/bank-deposit.js';
import { toMajor } from '../../domain/money.js';
import { AppError } from '../../errors.js';
import { BankDepositsRepo } from '../../store/bank-deposits-repo.js';
import type { DB } from '../../store/schema.js';
import type { CurrencySettings } from '../ports.js';

/**
 * The per-reseller daily deposit cap, for every channel: what the reseller asked for since
 * the UTC day began (open, in review or paid, bank and gateway alike) plus this deposit may
 * not pass it. Called in the transaction that writes the deposit; on PostgreSQL the
 * reseller's row lock serialises its deposits, so two at once cannot both fit.
 */
export async function assertWithinDailyCap(
  trx: Transaction<DB>, c: { dialect: 'sqlite' | 'postgres'; currency: CurrencySettings }, resellerId: string, amount: number, now: number,
): Promise<void> {
  const { dailyCap } = await BankDepositsRepo.settingsIn(trx);
  if (c.dialect === 'postgres') await trx.selectFrom('resellers').select('id').where('id', '=', resellerId).forUpdate().execute();
  if (dailyCap === null) return;
  const asked = await BankDepositsRepo.askedSince(trx, resellerId, utcDayStart(now));
  if (asked + amount > dailyCap) {
    const major = (m: number) => toMajor(m, c.currency.decimals);
    throw new AppError('VALIDATION_ERROR', `the daily deposit limit is ${major(dailyCap)} ${c.currency.code} and ${major(Math.max(0, dailyCap - asked))} is left today`);
  }
}
