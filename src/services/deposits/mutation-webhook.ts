import type { Logger } from 'pino';
import { mutationSignatureMatches } from '../../domain/bank-deposit.js';
import { bankIdIdentity, parseMutationPush } from '../../domain/bank-statement.js';
import { AppError } from '../../errors.js';
import { BankDepositsRepo } from '../../store/bank-deposits-repo.js';
import type { ServiceCore } from '../core.js';
import { intakeMutationIn } from './mutation-intake.js';

/**
 * A bank-mutation service's webhook (Moota-shaped): the raw body signed with HMAC-SHA256
 * hex under the shared secret, in the configured header. Nothing is read before the
 * signature holds; each mutation is stored once by its id, so a redelivery credits nothing.
 */
export class ReceiveMutationWebhook {
  private readonly repo: BankDepositsRepo;
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'clock' | 'ids' | 'secrets' | 'currency'>, private readonly logger: Logger) {
    this.repo = new BankDepositsRepo(core.db);
  }

  async execute(headers: Record<string, string | string[] | undefined>, raw: Buffer) {
    const sealed = await this.repo.sealedWebhookSecret();
    const settings = await this.repo.settings();
    const presented = headers[settings.webhookSignatureHeader.toLowerCase()];
    if (!sealed || !mutationSignatureMatches(this.core.secrets.open(sealed), raw, Array.isArray(presented) ? presented[0] : presented)) {
      this.logger.warn({ header: settings.webhookSignatureHeader, secretSet: sealed !== null }, 'bank mutation webhook refused: bad or missing signature');
      throw new AppError('INVALID_SIGNATURE', `webhook refused: the ${settings.webhookSignatureHeader} header does not match the mutation webhook secret`);
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new AppError('VALIDATION_ERROR', 'webhook body is not JSON');
    }
    const pushed = parseMutationPush(body, this.core.currency.decimals);
    const counts = { matched: 0, review: 0, unmatched: 0, duplicate: 0, debit: 0, unknown_account: 0 };
    for (const p of pushed) {
      const account = await this.repo.accountForMutation(p.bankId, p.accountNumber);
      if (!account) {
        counts.unknown_account++;
        this.logger.warn({ bankId: p.bankId, mutationId: p.mutationId }, 'bank mutation for an account that is not configured: ignored');
        continue;
      }
      const now = this.core.clock.now();
      const r = await this.core.db.transaction().execute((trx) => intakeMutationIn(trx, {
        bankAccountId: account.id, identity: bankIdIdentity(p.mutationId), source: 'webhook', bookedOn: p.date, description: p.description, amount: p.amount, direction: p.direction,
      }, settings, this.core.ids.uuid(), now));
      counts[r.outcome]++;
    }
    return counts;
  }
}
