import { createHmac } from 'node:crypto';
import { rawRequest, type ApiResponse } from './client.js';

/**
 * A fake bank-mutation service, written from ../shared/payments/bank-transfer.md and Moota's
 * webhook: it POSTs a JSON array of new mutations (account, date, description, amount, type
 * CR or DB, a mutation id) to the configured URL, signed in the `Signature` header with the
 * lowercase hex HMAC-SHA256 of the raw body under the shared secret token.
 */
export interface FakeMutation {
  mutation_id: string;
  bank_id?: string;
  account_number?: string;
  date: string;
  description: string;
  amount: number | string;
  type: 'CR' | 'DB';
  balance?: number;
  note?: string;
}

let seq = 0;

export class FakeMoota {
  constructor(
    readonly url: string,
    readonly secret: string,
    readonly header = 'Signature',
  ) {}

  /** A credit of `amount` to the account, as the bank writes it on the statement. */
  static credit(accountNumber: string, amount: number, description = 'TRSF E-BANKING CR'): FakeMutation {
    seq++;
    return { mutation_id: `mt-${Date.now().toString(36)}-${seq}`, account_number: accountNumber, date: '2026-11-27 09:15:00', description, amount, type: 'CR', balance: 0 };
  }

  sign(body: string, secret = this.secret) {
    return createHmac('sha256', secret).update(body).digest('hex');
  }

  /** Delivers mutations as one signed POST (as the service does every few minutes). */
  async push(mutations: FakeMutation[], opts: { secret?: string; signature?: string | null } = {}): Promise<ApiResponse> {
    const body = JSON.stringify(mutations);
    const signature = opts.signature === undefined ? this.sign(body, opts.secret) : opts.signature;
    return rawRequest(this.url, {
      method: 'POST', body,
      headers: { 'content-type': 'application/json', 'user-agent': 'MootaBot/1.0', ...(signature === null ? {} : { [this.header]: signature }) },
    });
  }
}
