import type { Sale } from '@wv/contracts';
import type { Random } from './prng.js';
import { priceOf, roundVolume, type Tariffs } from './tariff.js';

type WaterType = Sale['waterType'];
type SaleKind = Sale['kind'];

/** Two out of three sales are paid with coins; card holders are regulars. */
export const KIND_WEIGHTS: ReadonlyArray<readonly [SaleKind, number]> = [
  ['coin', 0.65],
  ['card', 0.35],
];

/** Fresh (filtered tap) water sells most; chilled water is a treat. */
export const WATER_TYPE_WEIGHTS: ReadonlyArray<readonly [WaterType, number]> = [
  ['fresh', 0.45],
  ['pure', 0.3],
  ['cold', 0.25],
];

/** Jerrycans come in 5, 10 and 20 litres; bottles take 1; `odd` is a stopped tap or a coin's worth. */
export const VOLUME_WEIGHTS: ReadonlyArray<readonly [number | 'odd', number]> = [
  [1, 0.2],
  [5, 0.25],
  [10, 0.2],
  [20, 0.15],
  ['odd', 0.2],
];

export const ODD_VOLUME_MIN = 0.25;
export const ODD_VOLUME_MAX = 19.999;

export function drawKind(rng: Random): SaleKind {
  return rng.weighted(KIND_WEIGHTS);
}

export function drawWaterType(rng: Random): WaterType {
  return rng.weighted(WATER_TYPE_WEIGHTS);
}

export function drawVolume(rng: Random): number {
  const v = rng.weighted(VOLUME_WEIGHTS);
  if (v !== 'odd') return v;
  return roundVolume(ODD_VOLUME_MIN + rng.next() * (ODD_VOLUME_MAX - ODD_VOLUME_MIN));
}

/** A card UID as RFID readers print it: 8 upper-case hex digits. */
export function randomCardId(rng: Random): string {
  return rng.hex(8);
}

export interface SaleContext {
  eventId: string;
  tariffs: Tariffs;
  /** Card ids to choose from for card sales; when empty, a customer drawn to pay by card pays with coins. */
  cards: readonly string[];
  time: Date;
}

/** One realistic sale; pure given the generator state, so statistics over a seeded stream are testable. */
export function generateSale(rng: Random, ctx: SaleContext): Sale {
  const drawnKind = drawKind(rng);
  const kind = drawnKind === 'card' && ctx.cards.length === 0 ? 'coin' : drawnKind;
  const waterType = drawWaterType(rng);
  const volume = drawVolume(rng);
  const sale: Sale = {
    eventId: ctx.eventId,
    kind,
    price: priceOf(volume, ctx.tariffs[waterType]),
    volume,
    waterType,
    time: ctx.time.toISOString(),
  };
  if (kind === 'card') sale.cardId = rng.pick(ctx.cards);
  return sale;
}
