import { randomBytes } from 'node:crypto';
import { DarajaSandbox } from './daraja-sandbox.js';

/** Safaricom's sandbox shortcode, which the demo's stand-in takes too. */
const DEMO_SHORTCODE = '174379';
/** How long the demo's pretend customer takes to type their PIN. */
const CUSTOMER_ANSWERS_AFTER_MS = 4_000;

export interface DemoDaraja {
  /** The stand-in's URL, or null when MPESA_BASE_URL pointed somewhere already. */
  url: string | null;
  stop(): Promise<void>;
}

/**
 * M-Pesa for the demo (docs/mobile-money.md, "The Daraja sandbox"): unless MPESA_BASE_URL is set, a
 * local Daraja stand-in whose customers accept every STK push after a few seconds, and the API pointed
 * at it (keys, passkey, callback token, and PUBLIC_URL as this machine's HTTP port).
 */
export async function startDemoDaraja(env: Record<string, string | undefined>): Promise<DemoDaraja> {
  if (env.MPESA_BASE_URL) return { url: null, stop: async () => undefined };
  const options = {
    consumerKey: randomBytes(12).toString('hex'),
    consumerSecret: randomBytes(12).toString('hex'),
    shortcode: env.MPESA_SHORTCODE ?? DEMO_SHORTCODE,
    passkey: randomBytes(16).toString('hex'),
  };
  const sandbox = new DarajaSandbox(options);
  sandbox.autoCustomer = { outcome: 'success', afterMs: CUSTOMER_ANSWERS_AFTER_MS };
  await sandbox.start();
  env.MPESA_BASE_URL = sandbox.url;
  env.MPESA_CONSUMER_KEY = options.consumerKey;
  env.MPESA_CONSUMER_SECRET = options.consumerSecret;
  env.MPESA_SHORTCODE = options.shortcode;
  env.MPESA_PASSKEY = options.passkey;
  env.MPESA_CALLBACK_TOKEN ??= randomBytes(24).toString('base64url');
  env.PUBLIC_URL ??= `http://127.0.0.1:${env.PORT ?? '3000'}`;
  return { url: sandbox.url, stop: () => sandbox.stop() };
}
