import { Logger } from '@nestjs/common';
import { assertPortFree, ConfigError } from '@wv/api';
import { randomBytes } from 'node:crypto';
import { SmsSink, SmtpCatcher, startInbox } from './outside/index.js';

/** Where the demo's inbox page listens when the port is free (MailHog's habit); otherwise any free port. */
const INBOX_PORT = 8025;
const SMS_USERNAME = 'sandbox';

export interface DemoOutside {
  /** The page listing every email and SMS the demo sent. */
  inboxUrl: string;
  /** Which channels point at the local catchers (the others were configured by the caller). */
  channels: string[];
  stop(): Promise<void>;
}

/**
 * The outside world of alarm notifications, on this machine: an SMTP server that keeps what it
 * receives and an SMS API in the manner of Africa's Talking, with one page to read both. The API is
 * pointed at them through SMTP_URL / MAIL_FROM and SMS_URL / SMS_USERNAME / SMS_API_KEY, unless
 * those are set already (then the demo sends through them and starts nothing for that channel).
 */
export async function startDemoOutside(env: Record<string, string | undefined>): Promise<DemoOutside> {
  const catcher = new SmtpCatcher();
  const apiKey = randomBytes(16).toString('hex');
  const sink = new SmsSink({ username: env.SMS_USERNAME ?? SMS_USERNAME, apiKey: env.SMS_API_KEY ?? apiKey });
  const channels: string[] = [];
  if (!env.SMTP_URL) {
    await catcher.start();
    env.SMTP_URL = catcher.url;
    env.MAIL_FROM ??= 'alarms@demo.local';
    channels.push('email');
  }
  if (!env.SMS_URL) {
    await sink.start();
    env.SMS_URL = sink.url;
    env.SMS_USERNAME ??= SMS_USERNAME;
    env.SMS_API_KEY ??= apiKey;
    channels.push('SMS');
  }
  const inbox = await startInbox(catcher, sink, await inboxPort(env.DEMO_INBOX_PORT));
  return {
    inboxUrl: inbox.url.replace('127.0.0.1', 'localhost'),
    channels,
    async stop() {
      await Promise.all([inbox.stop(), catcher.stop(), sink.stop()]);
    },
  };
}

/** DEMO_INBOX_PORT when set (and free), else 8025 when free, else any free port. */
async function inboxPort(requested: string | undefined): Promise<number> {
  if (requested !== undefined) {
    const port = Number(requested);
    if (!/^\d+$/.test(requested) || port > 65_535) {
      throw new ConfigError(`DEMO_INBOX_PORT must be a port number (0-65535), got "${requested}"`);
    }
    await assertPortFree(port, 'DEMO_INBOX_PORT');
    return port;
  }
  const free = await assertPortFree(INBOX_PORT, 'DEMO_INBOX_PORT').then(
    () => true,
    () => false,
  );
  if (!free)
    new Logger('Demo').warn(`Port ${INBOX_PORT} is taken: the inbox takes a free port (or set DEMO_INBOX_PORT)`);
  return free ? INBOX_PORT : 0;
}
