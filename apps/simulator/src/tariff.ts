import type { ConfigPayload } from '@wv/contracts';

/** Price per litre of each water type, in the currency's major unit (TZS). */
export interface Tariffs {
  pure: number;
  fresh: number;
  cold: number;
}

/** Used until the server publishes a config; typical kiosk prices in Dar es Salaam. */
export const DEFAULT_TARIFFS: Readonly<Tariffs> = { cold: 50, fresh: 30, pure: 40 };

/**
 * The config carries cold and fresh tariffs only (docs/device-protocol.md, "Configuration"), so pure keeps the
 * machine's own price; a machine applies what the server sends and nothing else.
 */
export function applyConfigTariffs(current: Tariffs, config: ConfigPayload): Tariffs {
  return { ...current, cold: config.tariffs.cold, fresh: config.tariffs.fresh };
}

/**
 * volume × tariff, rounded to the cent. Works in integer millilitres and cents so that binary
 * floating point never leaks a third decimal into a JSON price (0.1 × 3 is 0.30000000000000004).
 */
export function priceOf(volume: number, tariffPerLitre: number): number {
  const millilitres = Math.round(volume * 1000);
  const cents = Math.round(tariffPerLitre * 100);
  return Math.round((millilitres * cents) / 1000) / 100;
}

/** Rounds a volume to the protocol's 3 decimals. */
export function roundVolume(litres: number): number {
  return Math.round(litres * 1000) / 1000;
}
