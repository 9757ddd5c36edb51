import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ChannelError } from './channel-error.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** Stable per message, so that a message sent again after a crash is recognisably the same (RFC 5322, 3.6.4). */
  messageId: string;
  headers?: Record<string, string>;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/** Email through SMTP_URL from MAIL_FROM, with nodemailer's SMTP transport. */
@Injectable()
export class MailSender implements OnApplicationShutdown {
  private readonly transport?: Transporter;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const url = config.notifications.smtpUrl;
    if (url) {
      // One connection per message: nothing stays open to a server that restarts between messages.
      this.transport = nodemailer.createTransport(
        { url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
        { from: config.notifications.mailFrom },
      );
    }
  }

  get enabled(): boolean {
    return this.transport !== undefined;
  }

  /** The domain of MAIL_FROM, for Message-IDs. */
  get domain(): string {
    return /@([^>\s]+)>?\s*$/.exec(this.config.notifications.mailFrom)?.[1] ?? 'localhost';
  }

  async send(mail: OutgoingMail): Promise<void> {
    if (!this.transport) throw new ChannelError('email is off (SMTP_URL is not set)', true);
    try {
      await this.transport.sendMail({
        from: this.config.notifications.mailFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
        headers: mail.headers,
        attachments: mail.attachments,
      });
    } catch (error) {
      const e = error as Error & { responseCode?: number; code?: string };
      // A 5xx reply refuses this message for good (RFC 5321, 4.2.1); anything else (no connection,
      // a timeout, a 4xx) may pass later.
      const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
      throw new ChannelError(`SMTP: ${e.code ? `${e.code} ` : ''}${e.message}`, permanent);
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
