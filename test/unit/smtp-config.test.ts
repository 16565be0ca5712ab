import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';

describe('SMTP settings', () => {
  it('are off by default: messages are kept', () => {
    expect(parseConfig({}).smtp).toBeNull();
  });

  it('take a URL or host and parts, with the sender', () => {
    expect(parseConfig({ SMTP_URL: 'smtps://u:p@mail.example:465', SMTP_FROM: 'Topup <no-reply@topup.example>' }).smtp).toEqual({ url: 'smtps://u:p@mail.example:465', from: 'Topup <no-reply@topup.example>' });
    expect(parseConfig({ SMTP_HOST: 'mail.example', SMTP_SECURE: 'true', SMTP_USER: 'u', SMTP_PASSWORD: 'p', SMTP_FROM: 'no-reply@topup.example' }).smtp)
      .toEqual({ host: 'mail.example', port: 465, secure: true, user: 'u', password: 'p', from: 'no-reply@topup.example' });
  });

  it('refuse what cannot work, each problem named', () => {
    const problems = (env: Record<string, string>) => {
      try {
        parseConfig(env);
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(problems({ SMTP_HOST: 'mail.example' }).join('\n')).toMatch(/SMTP_FROM must be the sender's address/);
    expect(problems({ SMTP_URL: 'http://x', SMTP_FROM: 'a@b.c' }).join('\n')).toMatch(/SMTP_URL must be smtp:/);
    expect(problems({ SMTP_FROM: 'a@b.c' }).join('\n')).toMatch(/SMTP_FROM is set but neither SMTP_URL nor SMTP_HOST is/);
    expect(problems({ SMTP_URL: 'smtp://x', SMTP_HOST: 'y', SMTP_FROM: 'a@b.c' }).join('\n')).toMatch(/not both/);
  });
});
