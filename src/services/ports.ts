/** Collaborators every service receives from the composition root instead of reaching for globals. */
export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

export interface IdGenerator {
  uuid(): string;
}

export interface CurrencySettings {
  code: string;
  decimals: number;
  /** The largest amount one operation may move (a credit, a debit, a price), in minor units (MAX_OPERATION_AMOUNT). */
  maxAmount: number;
}

/** An email to send (the SMTP adapter, src/adapters/smtp-mailer.ts). */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per outbox message: a receiver can tell a retried send from a new message. */
  messageId: string;
}

/** Sends email; rejects when the server did not take the message. */
/** A chat to tell the operator in (Telegram): plain text to one chat. */
export interface ChatSender {
  send(chatId: string, text: string): Promise<void>;
}

export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
}
