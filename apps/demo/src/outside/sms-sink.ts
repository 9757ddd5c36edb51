import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOn } from './listen.js';

/** One SMS the sink accepted, per recipient. */
export interface ReceivedSms {
  messageId: string;
  username: string;
  to: string;
  message: string;
  receivedAt: Date;
}

export interface SmsSinkOptions {
  username: string;
  apiKey: string;
  /** 0 (default): a free port, kept for restarts. */
  port?: number;
  host?: string;
  /** Called after a message is stored and before the API answers (the fault tests' window). */
  onMessage?: (sms: ReceivedSms[]) => void | Promise<void>;
}

const E164 = /^\+[1-9]\d{7,14}$/;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * A local HTTP server speaking Africa's Talking's messaging API as far as sending goes:
 * `POST /version1/messaging` with the form fields `username`, `to` (comma-separated numbers) and
 * `message` and the `apiKey` header, answered with `SMSMessageData.Recipients[]` (statusCode 101
 * "Success" per number, 403 "InvalidPhoneNumber" for one that is not E.164). It keeps what it took
 * and lists it at `GET /messages`; `stop()` and `start()` again bring it down and back on the same port.
 */
export class SmsSink {
  private server?: Server;
  private readonly received: ReceivedSms[] = [];
  private boundPort: number;
  onMessage?: SmsSinkOptions['onMessage'];

  constructor(private readonly options: SmsSinkOptions) {
    this.boundPort = options.port ?? 0;
    this.onMessage = options.onMessage;
  }

  get port(): number {
    return this.boundPort;
  }

  /** What to put in SMS_URL. */
  get url(): string {
    return `http://${this.options.host ?? '127.0.0.1'}:${this.boundPort}`;
  }

  messages(): ReceivedSms[] {
    return [...this.received];
  }

  clear(): void {
    this.received.length = 0;
  }

  async start(): Promise<number> {
    if (this.server) return this.boundPort;
    const server = createServer((req, res) => {
      this.handle(req, res).catch(() => {
        if (!res.headersSent) json(res, 500, { error: 'internal error' });
        else res.end();
      });
    });
    this.boundPort = await listenOn(server, (listening) =>
      server.listen(this.boundPort, this.options.host ?? '127.0.0.1', listening),
    );
    this.server = server;
    return this.boundPort;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://sink').pathname;
    if (req.method === 'GET' && path === '/messages') return json(res, 200, this.received);
    if (path !== '/version1/messaging') return json(res, 404, { error: 'not found' });
    if (req.method !== 'POST') return json(res, 405, { error: 'method not allowed' });
    if (req.headers.apikey !== this.options.apiKey) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      return void res.end('The supplied authentication is invalid');
    }
    const form = new URLSearchParams(await readBody(req));
    const username = form.get('username') ?? '';
    const to = (form.get('to') ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    const message = form.get('message') ?? '';
    if (username !== this.options.username) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      return void res.end('The supplied authentication is invalid');
    }
    if (to.length === 0 || !message) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      return void res.end(to.length === 0 ? 'Must have to set' : 'Must have message set');
    }
    const taken: ReceivedSms[] = [];
    const recipients = to.map((number) => {
      if (!E164.test(number))
        return { statusCode: 403, number, status: 'InvalidPhoneNumber', cost: '0', messageId: 'None' };
      const sms = {
        messageId: `ATXid_${randomUUID().replace(/-/g, '')}`,
        username,
        to: number,
        message,
        receivedAt: new Date(),
      };
      taken.push(sms);
      return { statusCode: 101, number, status: 'Success', cost: 'TZS 0.0000', messageId: sms.messageId };
    });
    this.received.push(...taken);
    if (taken.length) await this.onMessage?.(taken);
    json(res, 201, {
      SMSMessageData: {
        Message: `Sent to ${taken.length}/${to.length} Total Cost: TZS 0.0000`,
        Recipients: recipients,
      },
    });
  }
}
