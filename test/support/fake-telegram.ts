import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the Telegram Bot API's sendMessage (POST /bot<token>/sendMessage with
 * JSON {chat_id, text}): records what arrives; answers {ok:true}, or an error while `failWith` is set.
 */
export class FakeTelegram {
  readonly received: { token: string; chatId: string; text: string }[] = [];
  failWith: { status: number; description: string } | null = null;
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const m = /^\/bot([^/]+)\/sendMessage$/.exec(req.url ?? '');
        res.setHeader('content-type', 'application/json');
        if (req.method !== 'POST' || !m) {
          res.statusCode = 404;
          res.end(JSON.stringify({ ok: false, error_code: 404, description: 'Not Found' }));
          return;
        }
        if (this.failWith) {
          res.statusCode = this.failWith.status;
          res.end(JSON.stringify({ ok: false, error_code: this.failWith.status, description: this.failWith.description }));
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { chat_id: string; text: string };
        this.received.push({ token: m[1]!, chatId: String(body.chat_id), text: body.text });
        res.end(JSON.stringify({ ok: true, result: { message_id: this.received.length } }));
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
