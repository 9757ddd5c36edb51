import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, type MpesaConfig } from '../config/app-config.js';
import {
  ProviderError,
  type MobileMoneyProvider,
  type PaymentQueryResult,
  type PaymentRequest,
  type PaymentRequested,
} from './mobile-money.provider.js';

/** The longest one call to Daraja may take before it counts as of unknown outcome. */
export const CALL_TIMEOUT_MS = 30_000;
/** A token is renewed this long before Daraja says it expires, so that no call carries a dying one. */
const TOKEN_MARGIN_MS = 60_000;
/** Daraja's answer to a query while the payer has not answered yet (M-Pesa Express Query). */
const STILL_PROCESSING = '500.001.1001';
/** Errors before the request left this machine: sending again cannot ask the payer twice. */
const UNREACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** `YYYYMMDDHHmmss` in East Africa Time (UTC+3), the Timestamp Daraja's password is built with. */
export function darajaTimestamp(at: Date = new Date()): string {
  return new Date(at.getTime() + 3 * 3600_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** Kenyan mobile numbers in Daraja's form: +2547…/+2541…, 2547…, 07… or 01… become 2547…/2541…. */
export function toDarajaMsisdn(phone: string): string | null {
  const digits = phone.replace(/[\s-]/g, '');
  const m = /^(?:\+?254|0)([17]\d{8})$/.exec(digits);
  return m ? `254${m[1]}` : null;
}

interface DarajaErrorBody {
  errorCode?: string;
  errorMessage?: string;
}

/**
 * Safaricom's Daraja API (developer.safaricom.co.ke, "Authorization" and "M-Pesa Express"): an OAuth
 * token cached until shortly before it expires (one request at a time renews it), the STK push with
 * Password = base64(Shortcode + Passkey + Timestamp), and the STK push query.
 */
@Injectable()
export class DarajaClient implements MobileMoneyProvider {
  readonly name = 'mpesa' as const;
  /** The query and the OAuth token it may need: two calls at most. */
  readonly longestQueryMs = 2 * CALL_TIMEOUT_MS;
  private token?: { value: string; expiresAt: number };
  private renewing?: Promise<string>;
  /** Tokens fetched, for the operator's metrics and the tests that prove the cache. */
  tokensFetched = 0;

  constructor(@Inject(APP_CONFIG) private readonly appConfig: AppConfig) {}

  private get config(): MpesaConfig {
    if (!this.appConfig.mpesa) throw new ProviderError('M-Pesa is not configured', 'unreached', false);
    return this.appConfig.mpesa;
  }

  toMsisdn(phoneNumber: string): string | null {
    return toDarajaMsisdn(phoneNumber);
  }

  async requestPayment(request: PaymentRequest): Promise<PaymentRequested> {
    const c = this.config;
    const body = await this.call('/mpesa/stkpush/v1/processrequest', {
      ...this.credentials(),
      TransactionType: 'CustomerPayBillOnline',
      Amount: request.amount,
      PartyA: request.msisdn,
      PartyB: c.shortcode,
      PhoneNumber: request.msisdn,
      CallBackURL: request.callbackUrl,
      AccountReference: request.accountReference.slice(0, 12),
      TransactionDesc: 'Card top-up',
    });
    const ok = body as { ResponseCode?: string; CheckoutRequestID?: string; MerchantRequestID?: string };
    if (ok.ResponseCode !== '0' || !ok.CheckoutRequestID) {
      throw new ProviderError(`STK push not accepted: ${JSON.stringify(body).slice(0, 300)}`, 'refused', false);
    }
    return { requestId: ok.CheckoutRequestID, merchantRequestId: ok.MerchantRequestID ?? '' };
  }

  async queryPayment(requestId: string): Promise<PaymentQueryResult> {
    try {
      const body = (await this.call('/mpesa/stkpushquery/v1/query', {
        ...this.credentials(),
        CheckoutRequestID: requestId,
      })) as { ResultCode?: string | number; ResultDesc?: string };
      const code = Number(body.ResultCode);
      if (body.ResultCode === undefined || !Number.isInteger(code)) {
        throw new ProviderError(`STK query without a result: ${JSON.stringify(body).slice(0, 300)}`, 'refused', true);
      }
      return { state: 'settled', resultCode: code, resultDesc: String(body.ResultDesc ?? '') };
    } catch (error) {
      if (error instanceof DarajaHttpError && error.body.errorCode === STILL_PROCESSING) return { state: 'processing' };
      throw error;
    }
  }

  /**
   * C2B URL registration. `ResponseType: Completed`: when the validation URL cannot be reached, Daraja
   * completes the payment anyway; its confirmation then credits the card or becomes unmatched, so
   * money a customer paid is never refused because this server was briefly down.
   */
  async registerPaybillUrls(urls: { validationUrl: string; confirmationUrl: string }): Promise<void> {
    const body = (await this.call('/mpesa/c2b/v1/registerurl', {
      ShortCode: this.config.shortcode,
      ResponseType: 'Completed',
      ConfirmationURL: urls.confirmationUrl,
      ValidationURL: urls.validationUrl,
    })) as { ResponseCode?: string; ResponseDescription?: string };
    if (body.ResponseCode !== '0') {
      throw new ProviderError(`C2B URL registration refused: ${body.ResponseDescription ?? ''}`, 'refused', true);
    }
  }

  private credentials() {
    const c = this.config;
    const timestamp = darajaTimestamp();
    return {
      BusinessShortCode: c.shortcode,
      Password: Buffer.from(`${c.shortcode}${c.passkey}${timestamp}`).toString('base64'),
      Timestamp: timestamp,
    };
  }

  /** POSTs with a bearer token; a token Daraja refuses (401) is renewed and the call made once more. */
  private async call(path: string, body: unknown, retried = false): Promise<unknown> {
    const token = await this.accessToken();
    const res = await this.fetch(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const parsed = await readJson(res);
    if (res.status === 401 && !retried) {
      this.token = undefined;
      return this.call(path, body, true);
    }
    if (res.status >= 200 && res.status < 300) return parsed;
    throw new DarajaHttpError(path, res.status, (parsed ?? {}) as DarajaErrorBody);
  }

  private accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return Promise.resolve(this.token.value);
    this.renewing ??= this.fetchToken().finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  private async fetchToken(): Promise<string> {
    const c = this.config;
    const basic = Buffer.from(`${c.consumerKey}:${c.consumerSecret}`).toString('base64');
    const res = await this.fetch('/oauth/v1/generate?grant_type=client_credentials', {
      headers: { authorization: `Basic ${basic}` },
    });
    const body = (await readJson(res)) as { access_token?: string; expires_in?: string | number } | undefined;
    if (res.status !== 200 || !body?.access_token) {
      // Wrong keys are the operator's to fix; a retry later may meet a Daraja that recovered.
      throw new ProviderError(`Daraja refused the OAuth token request (HTTP ${res.status})`, 'unreached', true);
    }
    const lifetimeMs = Math.max(Number(body.expires_in ?? 3599) * 1000, 0);
    this.tokensFetched++;
    this.token = { value: body.access_token, expiresAt: Date.now() + Math.max(lifetimeMs - TOKEN_MARGIN_MS, 0) };
    return body.access_token;
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${this.config.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      const delivery = code && UNREACHED.has(code) ? 'unreached' : 'unknown';
      throw new ProviderError(
        `Daraja ${path.split('?')[0]}: ${(error as Error).message} ${code ?? ''}`,
        delivery,
        true,
      );
    }
  }
}

/** An HTTP answer other than 2xx: Daraja answered, so the request was refused (5xx may pass on retry). */
class DarajaHttpError extends ProviderError {
  constructor(
    path: string,
    readonly status: number,
    readonly body: DarajaErrorBody,
  ) {
    super(
      `Daraja ${path} answered ${status}: ${body.errorCode ?? ''} ${body.errorMessage ?? ''}`.trim(),
      'refused',
      status >= 500 || status === 429,
    );
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return { errorMessage: text.slice(0, 200) };
  }
}
