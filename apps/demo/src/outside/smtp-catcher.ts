import type { Socket } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { listenOn } from './listen.js';

/** One message the catcher accepted. */
export interface CaughtMail {
  messageId: string;
  from: string;
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  subject: string;
  text: string;
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; content: Buffer }[];
  receivedAt: Date;
}

export interface SmtpCatcherOptions {
  /** 0 (default): a free port, kept for restarts. */
  port?: number;
  host?: string;
  /**
   * Called with each parsed message after it is stored and before the server answers 250 to DATA:
   * a fault test can stop the sender here, inside the window between sending and recording.
   */
  onMessage?: (mail: CaughtMail) => void | Promise<void>;
  /** Recipients to refuse with `550` at RCPT TO, as a server refuses an unknown mailbox. */
  refuse?: (address: string) => boolean;
}

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value.map((v) => v.address ?? '')).filter(Boolean);

/**
 * A local SMTP server that keeps every message it receives (in memory) instead of delivering it: the
 * demo's mailbox and the tests' mail server. Plain SMTP without STARTTLS or AUTH, like a relay on
 * localhost; `stop()` and `start()` again take it down and bring it back on the same port.
 */
export class SmtpCatcher {
  private server?: SMTPServer;
  private readonly sockets = new Set<Socket>();
  private readonly received: CaughtMail[] = [];
  private boundPort: number;
  onMessage?: SmtpCatcherOptions['onMessage'];
  refuse?: SmtpCatcherOptions['refuse'];

  constructor(private readonly options: SmtpCatcherOptions = {}) {
    this.boundPort = options.port ?? 0;
    this.onMessage = options.onMessage;
    this.refuse = options.refuse;
  }

  get port(): number {
    return this.boundPort;
  }

  /** What to put in SMTP_URL. */
  get url(): string {
    return `smtp://${this.options.host ?? '127.0.0.1'}:${this.boundPort}`;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  /** Every message received so far, oldest first (a copy). */
  messages(): CaughtMail[] {
    return [...this.received];
  }

  clear(): void {
    this.received.length = 0;
  }

  async start(): Promise<number> {
    if (this.server) return this.boundPort;
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      closeTimeout: 1_000,
      size: 25 * 1024 * 1024,
      onConnect: (session, callback) => callback(),
      onRcptTo: (address, session, callback) => {
        if (!this.refuse?.(address.address)) return callback();
        callback(Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 }));
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then(async (parsed) => {
            const headers: Record<string, string> = {};
            for (const [key, value] of parsed.headers) {
              if (typeof value === 'string') headers[key] = value;
            }
            const mail: CaughtMail = {
              messageId: parsed.messageId ?? '',
              from: addresses(parsed.from)[0] ?? '',
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              headers,
              attachments: parsed.attachments.map((a) => ({
                filename: a.filename ?? '',
                contentType: a.contentType,
                content: a.content,
              })),
              receivedAt: new Date(),
            };
            this.received.push(mail);
            await this.onMessage?.(mail);
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    server.on('error', () => undefined);
    const net = (server as unknown as { server: import('node:net').Server }).server;
    net.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.boundPort = await listenOn(net, (listening) =>
      server.listen(this.boundPort, this.options.host ?? '127.0.0.1', listening),
    );
    this.server = server;
    return this.boundPort;
  }

  /** Closes the port and every open connection at once (a server that went down). */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
