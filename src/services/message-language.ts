import { LANGUAGES } from '../domain/message-templates.js';
import { AppError } from '../errors.js';
import type { Language } from '../store/schema.js';
import type { ServiceCore } from './core.js';

/** The language a signed-in person (shop or operator) is emailed in, chosen in their profile. */
export class MessageLanguage {
  constructor(private readonly core: Pick<ServiceCore, 'repos'>) {}

  async get(kind: 'operator' | 'reseller', id: string): Promise<Language> {
    return (await this.core.repos.accounts.languageOf(kind, id)) ?? 'en';
  }

  async set(kind: 'operator' | 'reseller', id: string, language: string): Promise<Language> {
    if (!(LANGUAGES as readonly string[]).includes(language)) throw new AppError('VALIDATION_ERROR', `language must be one of ${LANGUAGES.join(', ')} (got "${language}")`);
    await this.core.repos.accounts.setLanguage(kind, id, language as Language);
    return language as Language;
  }
}
