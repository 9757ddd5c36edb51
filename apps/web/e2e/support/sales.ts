import { randomUUID } from 'node:crypto';
import type { Sale } from '@wv/contracts';

/** Africa/Dar_es_Salaam (the server's default APP_TIMEZONE) is UTC+3 all year, without summer time. */
const APP_OFFSET_MS = 3 * 3600_000;
const DAY_MS = 86_400_000;

/** The business day (YYYY-MM-DD) of an instant, as the server and the web app count it. */
export const businessDay = (instant: number = Date.now()): string =>
  new Date(instant + APP_OFFSET_MS).toISOString().slice(0, 10);

export const daysBefore = (days: number, instant = Date.now()): string => businessDay(instant - days * DAY_MS);

/**
 * Browser tests seed sales "today" and expect pages that open on today (docs/web-app.md: the app's
 * day is APP_TIMEZONE's). A spec that ran across local midnight would fail for the calendar, not for
 * the code: a spec that would start less than `marginMs` before local midnight waits until it passed.
 */
export async function clearOfLocalMidnight(marginMs: number): Promise<void> {
  const untilMidnight = DAY_MS - ((Date.now() + APP_OFFSET_MS) % DAY_MS);
  if (untilMidnight >= marginMs) return;
  console.log(
    `Local midnight (APP_TIMEZONE) in ${Math.ceil(untilMidnight / 1000)} s: waiting for it before this spec.`,
  );
  await new Promise((resolve) => setTimeout(resolve, untilMidnight + 2_000));
}

/**
 * `count` distinct times one second apart, all within today's business day and never more than a
 * few seconds ahead of now (the server refuses sales over 5 minutes in the future).
 */
export function timesToday(count: number, now = Date.now()): string[] {
  const local = now + APP_OFFSET_MS;
  const startOfDay = local - (local % DAY_MS) - APP_OFFSET_MS;
  const base = Math.max(now - (count + 5) * 1000, startOfDay + 1000);
  return Array.from({ length: count }, (_, i) => new Date(base + i * 1000).toISOString());
}

export function coinSale(price: number, volume: number, waterType: Sale['waterType'], time?: string): Sale {
  return { eventId: randomUUID(), kind: 'coin', price, volume, waterType, ...(time ? { time } : {}) };
}

export function cardSale(cardId: string, price: number, volume: number, time?: string): Sale {
  return { eventId: randomUUID(), kind: 'card', cardId, price, volume, waterType: 'cold', ...(time ? { time } : {}) };
}
