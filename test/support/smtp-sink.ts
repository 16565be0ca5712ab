import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  to: string[];
  raw: string;
  subject: string;
  messageId: string;
  /** The text of every part, quoted-printable decoded (enough to find a link or a phrase). */
  text: string;
}

/** Decodes quoted-printable (soft line breaks and =XX) as nodemailer writes it. */
const decodeQp = (s: string) => Buffer.from(s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');

/** A real SMTP server on loopback that keeps what it receives; stop() and start() again simulate an outage. */
export class SmtpSink {
  readonly received: ReceivedEmail[] = [];
  private server: SMTPServer | null = null;
  port = 0;

  async start(): Promise<this> {
    const server = new SMTPServer({
      authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'mi').exec(raw)?.[1]?.trim() ?? '';
          this.received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, subject: header('Subject'), messageId: header('Message-ID'), text: decodeQp(raw) });
          done();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = ((server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
    this.server = server;
    return this;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  to(address: string): ReceivedEmail[] {
    return this.received.filter((m) => m.to.includes(address));
  }
}
