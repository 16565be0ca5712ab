import { deviceSummary } from '../domain/device.js';
import { AppError } from '../errors.js';
import type { AccountsRepo } from '../store/accounts-repo.js';
import type { SessionSubject } from '../store/schema.js';
import type { Clock } from './ports.js';

/** How many sign-ins the history shows. */
export const SIGN_IN_HISTORY_LIMIT = 50;

export interface SessionView {
  id: string | null;
  current: boolean;
  device: string;
  ip: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number;
}

/** A person's live sessions (device, address, last use) and sign-in history; ending one. */
export class SessionList {
  constructor(private readonly deps: { accounts: AccountsRepo; clock: Clock }) {}

  async sessions(kind: SessionSubject, subjectId: string, currentTokenHash: string | null): Promise<SessionView[]> {
    const rows = await this.deps.accounts.liveSessionsOf(kind, subjectId, this.deps.clock.now());
    return rows.map((r) => ({
      id: r.id, current: r.token_hash === currentTokenHash, device: deviceSummary(r.user_agent), ip: r.ip,
      createdAt: Number(r.created_at), lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at), expiresAt: Number(r.expires_at),
    }));
  }

  /** Ends one of the person's own sessions (this one too: then it is a sign-out). */
  async end(kind: SessionSubject, subjectId: string, id: string): Promise<void> {
    if (!(await this.deps.accounts.deleteSessionById(kind, subjectId, id))) throw new AppError('NOT_FOUND', `no live session ${id} of yours`);
  }

  async history(kind: SessionSubject, subjectId: string) {
    const rows = await this.deps.accounts.signInsOf(kind, subjectId, SIGN_IN_HISTORY_LIMIT);
    return rows.map((r) => ({ id: r.id, at: Number(r.created_at), ip: r.ip, device: deviceSummary(r.user_agent), newDevice: r.new_device === 1 }));
  }
}
