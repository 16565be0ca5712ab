import type { Mailer } from '../services/ports.js';

export type SmtpSettings =
  | { url: string; from: string }
  | { host: string; port: number; secure: boolean; user: string | null; password: string | null; from: string };

/** How long one SMTP exchange may take before the attempt counts as failed (then retried). */
const SMTP_TIMEOUT_MS = 20_000;

/** Email over SMTP with nodemailer; loaded only when SMTP is configured. */
export async function createSmtpMailer(settings: SmtpSettings): Promise<Mailer & { close(): void }> {
  const nodemailer = (await import('nodemailer')).default;
  const timeouts = { connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS };
  const transport =
    'url' in settings
      ? nodemailer.createTransport(settings.url, {})
      : nodemailer.createTransport({
          host: settings.host, port: settings.port, secure: settings.secure, ...timeouts,
          auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
        });
  if ('url' in settings) Object.assign(transport.options, timeouts);
  return {
    async send(email) {
      await transport.sendMail({ from: settings.from, to: email.to, subject: email.subject, text: email.text, html: email.html, messageId: email.messageId });
    },
    close: () => transport.close(),
  };
}
