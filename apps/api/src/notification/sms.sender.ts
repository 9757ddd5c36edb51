import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ChannelError, mayHaveArrived } from './channel-error.js';

/** Africa's Talking's per-recipient status codes that mean the message was taken: Processed, Sent, Queued. */
const ACCEPTED = new Set([100, 101, 102]);
/** InvalidPhoneNumber, UnsupportedNumberType, UserInBlacklist, DoNotDisturbRejection: sending again cannot help. */
const REFUSED_FOR_GOOD = new Set([403, 404, 406, 409]);

/** The network error code under a failed fetch or body read (undici puts it in `cause`). */
const causeCode = (error: unknown): string | undefined => (error as { cause?: { code?: string } }).cause?.code;

interface MessagingResponse {
  SMSMessageData?: {
    Message?: string;
    Recipients?: { statusCode?: number; number?: string; status?: string; messageId?: string }[];
  };
}

/**
 * SMS through an Africa's Talking–compatible messaging API: `POST {SMS_URL}/version1/messaging` with
 * the form fields `username`, `to`, `message` and the `apiKey` header; the answer's
 * `SMSMessageData.Recipients[].statusCode` says per number whether it was taken.
 */
@Injectable()
export class SmsSender {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get enabled(): boolean {
    return this.config.notifications.sms !== undefined;
  }

  async send(to: string, message: string): Promise<void> {
    const sms = this.config.notifications.sms;
    if (!sms) throw new ChannelError('SMS is off (SMS_URL, SMS_USERNAME or SMS_API_KEY is not set)', true);
    let res: Response;
    try {
      res = await fetch(`${sms.url}/version1/messaging`, {
        method: 'POST',
        headers: {
          apiKey: sms.apiKey,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ username: sms.username, to, message }).toString(),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      const cause = causeCode(error);
      // A timeout or a cut connection after the request went out: the API may have taken the SMS.
      const unknown = mayHaveArrived(cause);
      throw new ChannelError(
        `SMS API ${unknown ? 'did not answer' : 'unreachable'}: ${cause ?? (error as Error).message}`,
        false,
        unknown,
      );
    }
    let text: string;
    try {
      text = await res.text();
    } catch (error) {
      // The answer was cut after its status line: a 2xx says the API took the request, so the SMS may have arrived.
      const cause = causeCode(error) ?? (error as Error).message;
      throw new ChannelError(
        `SMS API ${res.ok ? 'did not answer' : `answered ${res.status}`}: its answer was cut (${cause})`,
        false,
        res.ok,
      );
    }
    if (!res.ok) {
      // 400: the request itself is wrong; 401/403 (a key being fixed), 429 and 5xx may pass later.
      throw new ChannelError(`SMS API answered ${res.status}: ${text.slice(0, 200)}`, res.status === 400);
    }
    let body: MessagingResponse;
    try {
      body = JSON.parse(text) as MessagingResponse;
    } catch {
      throw new ChannelError(
        `SMS API answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`,
        false,
      );
    }
    const recipient = body.SMSMessageData?.Recipients?.[0];
    if (!recipient || typeof recipient.statusCode !== 'number') {
      throw new ChannelError(`SMS API took no recipient: ${body.SMSMessageData?.Message ?? text.slice(0, 200)}`, false);
    }
    if (!ACCEPTED.has(recipient.statusCode)) {
      throw new ChannelError(
        `SMS API refused ${to}: ${recipient.statusCode} ${recipient.status ?? ''}`.trim(),
        REFUSED_FOR_GOOD.has(recipient.statusCode),
      );
    }
  }
}
