import { LANGUAGES, OPTIONAL_MESSAGES } from '../domain/message-templates.js';
import { AppError } from '../errors.js';
import type { Language } from '../store/schema.js';
import type { ServiceCore } from './core.js';

/**
 * What a signed-in person (shop or operator) is sent, chosen in their profile: the language
 * of their messages, and which optional messages they turned off.
 */
export class MessageSettings {
  constructor(private readonly core: Pick<ServiceCore, 'repos'>) {}

  async get(kind: 'operator' | 'reseller', id: string): Promise<Language> {
    return (await this.core.repos.accounts.languageOf(kind, id)) ?? 'en';
  }

  async set(kind: 'operator' | 'reseller', id: string, language: string): Promise<Language> {
    if (!(LANGUAGES as readonly string[]).includes(language)) throw new AppError('VALIDATION_ERROR', `language must be one of ${LANGUAGES.join(', ')} (got "${language}")`);
    await this.core.repos.accounts.setLanguage(kind, id, language as Language);
    return language as Language;
  }

  /** Each optional message this person can receive, on or off. */
  async optional(kind: 'operator' | 'reseller', id: string): Promise<Record<string, boolean>> {
    const muted = await this.core.repos.accounts.mutedOf(kind, id);
    return Object.fromEntries(OPTIONAL_MESSAGES[kind].map((t) => [t, !muted.includes(t)]));
  }

  /** Turns optional messages on or off; those not named keep their setting. */
  async setOptional(kind: 'operator' | 'reseller', id: string, changes: Record<string, unknown>): Promise<Record<string, boolean>> {
    const allowed = OPTIONAL_MESSAGES[kind] as readonly string[];
    for (const [t, v] of Object.entries(changes)) {
      if (!allowed.includes(t)) throw new AppError('VALIDATION_ERROR', `enabled.${t} is not a message you can turn off; these are: ${allowed.join(', ')}`);
      if (typeof v !== 'boolean') throw new AppError('VALIDATION_ERROR', `enabled.${t} must be true (sent) or false (not sent)`);
    }
    const current = await this.optional(kind, id);
    const next = { ...current, ...(changes as Record<string, boolean>) };
    await this.core.repos.accounts.setMuted(kind, id, Object.keys(next).filter((t) => !next[t]));
    return next;
  }
}
