// The outside world's stand-ins (a real SMTP server and an Africa's Talking–compatible HTTP API) live with
// the demo; the soak points the program at them and takes them down on purpose.
import { createServer, request, type Server } from 'node:http';
import { DarajaSandbox } from '../../../demo/src/daraja/index.js';
import { SmsSink, type ReceivedSms } from '../../../demo/src/outside/sms-sink.js';
import { SmtpCatcher, type CaughtMail } from '../../../demo/src/outside/smtp-catcher.js';
import { listenOn } from '../../../demo/src/outside/listen.js';

const SMS = { username: 'soak', apiKey: 'soak-sms-key' };
/** The start of a payer's M-Pesa receipt SMS, in English or Kiswahili (apps/api/src/payment/payment-receipt.message.ts). */
const RECEIPT_TEXT = /^(M-Pesa receipt|M-Pesa payment|Risiti ya M-Pesa|Malipo ya M-Pesa)\b/;
const MPESA = { consumerKey: 'soak-key', consumerSecret: 'soak-secret', shortcode: '174379', passkey: 'soak-passkey' };
const MPESA_CALLBACK_TOKEN = 'soak-callback-token-0123456789';

export type SmsOutage = 'stopped' | '5xx';
export type Channel = 'email' | 'sms';

/**
 * The SMTP server and the SMS API the program sends alarms to (docs/alarms.md, "Notifications"), kept
 * for the whole suite on fixed ports. The SMS API sits behind a small HTTP gate so that it can be
 * down in both ways a real API is: not answering connections (the gate stops listening) or
 * answering 503 without taking the message. The SMTP catcher goes down by stopping (connections
 * refused, open ones cut). Daraja's stand-in takes the customers' M-Pesa payments
 * (docs/mobile-money.md).
 */
export class NotifyOutside {
  private gate?: Server;
  private gatePort = 0;
  private smsAnswer: 'forward' | '5xx' = 'forward';
  /** Answered 503 while the API was "down" (never forwarded, never taken). */
  refusedSms = 0;

  private constructor(
    readonly catcher: SmtpCatcher,
    readonly sink: SmsSink,
    readonly daraja: DarajaSandbox,
  ) {}

  static async start(): Promise<NotifyOutside> {
    const catcher = new SmtpCatcher();
    const sink = new SmsSink({ ...SMS });
    const daraja = new DarajaSandbox(MPESA);
    await catcher.start();
    await sink.start();
    await daraja.start();
    const outside = new NotifyOutside(catcher, sink, daraja);
    await outside.openGate();
    return outside;
  }

  /** What the program needs to send email and SMS here and to take M-Pesa payments; `publicUrl` is its own address. */
  env(publicUrl: string): Record<string, string> {
    return {
      MPESA_BASE_URL: this.daraja.url,
      MPESA_CONSUMER_KEY: MPESA.consumerKey,
      MPESA_CONSUMER_SECRET: MPESA.consumerSecret,
      MPESA_SHORTCODE: MPESA.shortcode,
      MPESA_PASSKEY: MPESA.passkey,
      MPESA_CALLBACK_TOKEN,
      PUBLIC_URL: publicUrl,
      // A lost callback is asked after about 2 s (Daraja's answer would take 60 s: longer than a run's faults).
      MPESA_QUERY_AFTER_SECONDS: '2',
      SMTP_URL: this.catcher.url,
      MAIL_FROM: 'alarms@soak.local',
      SMS_URL: `http://127.0.0.1:${this.gatePort}`,
      SMS_USERNAME: SMS.username,
      SMS_API_KEY: SMS.apiKey,
    };
  }

  mails(): CaughtMail[] {
    return this.catcher.messages();
  }

  sms(): ReceivedSms[] {
    return this.sink.messages();
  }

  /** Forgets what arrived (a new run starts). */
  clear(): void {
    this.catcher.clear();
    this.sink.clear();
    this.refusedSms = 0;
  }

  async smtpDown(): Promise<void> {
    await this.catcher.stop();
  }

  async smtpUp(): Promise<void> {
    await this.catcher.start();
  }

  async smsDown(how: SmsOutage): Promise<void> {
    if (how === '5xx') this.smsAnswer = '5xx';
    else await this.closeGate();
  }

  async smsUp(): Promise<void> {
    this.smsAnswer = 'forward';
    await this.openGate();
  }

  /** Both servers up and nothing armed (after a run that ended in the middle of a fault). */
  async ensureUp(): Promise<void> {
    this.disarm();
    await this.smtpUp();
    await this.smsUp();
  }

  /**
   * Calls `action` once, the next time `channel`'s server holds a message it took and has not yet
   * answered (the window between sending and recording); the answer waits for `action`. Resolves
   * with the moment it ran.
   */
  onNextMessage(channel: Channel, action: () => Promise<void>): Promise<number> {
    return new Promise((resolve, reject) => {
      const once = async () => {
        this.disarm();
        try {
          await action();
          resolve(Date.now());
        } catch (error) {
          reject(error as Error);
        }
      };
      if (channel === 'email') this.catcher.onMessage = once;
      // An alarm SMS, not a payer's M-Pesa receipt: the receipts have their own dispatcher in the same
      // worker, and a kill aimed there would land at a random point of the alarm messages' sends.
      else this.sink.onMessage = (taken) => (taken.some((m) => !RECEIPT_TEXT.test(m.message)) ? once() : undefined);
    });
  }

  disarm(): void {
    this.catcher.onMessage = undefined;
    this.sink.onMessage = undefined;
  }

  async stop(): Promise<void> {
    this.disarm();
    await this.closeGate();
    await this.catcher.stop();
    await this.sink.stop();
    await this.daraja.stop();
  }

  private async openGate(): Promise<void> {
    if (this.gate) return;
    const gate = createServer((req, res) => {
      if (this.smsAnswer === '5xx') {
        this.refusedSms++;
        req.resume();
        res.writeHead(503, { 'content-type': 'text/plain' });
        return void res.end('Service Unavailable');
      }
      const upstream = request(
        { host: '127.0.0.1', port: this.sink.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
    });
    this.gatePort = await listenOn(gate, (listening) => gate.listen(this.gatePort, '127.0.0.1', listening));
    this.gate = gate;
  }

  private async closeGate(): Promise<void> {
    const gate = this.gate;
    if (!gate) return;
    this.gate = undefined;
    gate.closeAllConnections();
    await new Promise<void>((resolve) => gate.close(() => resolve()));
  }
}
