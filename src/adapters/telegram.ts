import type { ChatSender } from '../services/ports.js';

export interface TelegramSettings {
  /** https://api.telegram.org, or a stand-in (tests, a proxy). */
  apiUrl: string;
  botToken: string;
  chatId: string;
}

const TELEGRAM_TIMEOUT_MS = 15_000;

/**
 * The Bot API's sendMessage. The token is part of the URL, so no error this throws names
 * the URL: only the HTTP status, Telegram's description, or the network error's code.
 */
export function createTelegramSender(s: TelegramSettings): ChatSender {
  const url = `${s.apiUrl.replace(/\/$/, '')}/bot${s.botToken}/sendMessage`;
  return {
    async send(chatId, text) {
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST', headers: { 'content-type': 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(TELEGRAM_TIMEOUT_MS),
          body: JSON.stringify({ chat_id: chatId, text, disable_web_page_preview: true }),
        });
      } catch (e) {
        const code = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
        throw new Error(`Telegram not reached (${code})`);
      }
      const body = (await res.json().catch(() => null)) as { ok?: boolean; description?: string } | null;
      if (res.status !== 200 || body?.ok !== true) throw new Error(`Telegram answered ${res.status}: ${String(body?.description ?? 'no description').slice(0, 200)}`);
    },
  };
}
