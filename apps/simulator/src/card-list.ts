import type { CardListDeltaPayload, CardListEntry, CardListPayload } from '@wv/contracts';
import { DEFAULT_TIME_ZONE } from './day-curve.js';

/** Why a machine turned a card away on its own (docs/device-protocol.md, "Card lists"). */
export type CardRefusalReason = 'unknown' | 'blocked' | 'over_limit' | 'balance';

export interface CardRefusal {
  cardId: string;
  reason: CardRefusalReason;
}

/** What the list says of one card, and what the machine counted since. */
interface HeldCard {
  entry: CardListEntry;
  /** The balance the machine works with, in cents: the list's, less this machine's sales since. */
  balanceCents: number;
}

/** Money in integer cents: balances carry at most 2 decimals, and floats never add up cents. */
const cents = (amount: number) => Math.round(amount * 100);
/** Litres in integer millilitres, for the same reason. */
const millilitres = (litres: number) => Math.round(litres * 1000);

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of `date` on the wall clock of `timeZone`: the day a daily limit counts in. */
export function localDay(date: Date, timeZone: string = DEFAULT_TIME_ZONE): string {
  let fmt = dayFormatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(timeZone, fmt);
  }
  return fmt.format(date);
}

/**
 * The card list in the machine's flash and the decisions firmware takes with it while it sells, online or not
 * (docs/device-protocol.md, "Card lists", "What the firmware should do"):
 *
 * - a full list replaces the one held when its version is newer; a delta applies only on the version held;
 * - a card is refused when it is not on the list, blocked, past its daily limit in litres (counted by this
 *   machine per local day), or when its balance does not cover the price;
 * - each card sale lowers the card's balance at once; a new version of a card sets its balance to the list's
 *   less the card sales still in flash (not yet in a sales/ack), which the list cannot count yet.
 */
export class CardList {
  private versionValue = 0;
  private readonly cards = new Map<string, HeldCard>();
  /** `cardIds()` for every sale of a busy machine, rebuilt only when the list changes. */
  private ids: string[] | null = null;
  /** Card sales in flash not yet acknowledged: eventId → card and cents. */
  private readonly unacked = new Map<string, { cardId: string; cents: number }>();
  /** The same, summed per card. */
  private readonly unackedByCard = new Map<string, number>();
  /** Millilitres drawn on each card at this machine, per local day. */
  private readonly drawn = new Map<string, { day: string; ml: number }>();

  constructor(private readonly timeZone: string = DEFAULT_TIME_ZONE) {}

  /** The version held (0: no list yet); what the machine acknowledges on cards/ack. */
  get version(): number {
    return this.versionValue;
  }

  get size(): number {
    return this.cards.size;
  }

  /** The card ids held, in list order (blocked ones too: their holders still try them). */
  cardIds(): readonly string[] {
    this.ids ??= [...this.cards.keys()];
    return this.ids;
  }

  /** The card as the machine sees it now: the list's entry with the machine's own balance. */
  card(cardId: string): CardListEntry | undefined {
    const held = this.cards.get(cardId);
    return held && { ...held.entry, balance: held.balanceCents / 100 };
  }

  /** Replaces the list when `list` is newer than the one held; false (ignored) otherwise. */
  applyFull(list: CardListPayload): boolean {
    if (list.version <= this.versionValue) return false;
    this.cards.clear();
    this.ids = null;
    for (const entry of list.cards) this.put(entry);
    this.versionValue = list.version;
    return true;
  }

  /** Applies a delta built on the version held; any other delta is ignored (the server sends the full list). */
  applyDelta(delta: CardListDeltaPayload): boolean {
    if (this.versionValue === 0 || delta.baseVersion !== this.versionValue) return false;
    for (const entry of delta.upserts) this.put(entry);
    for (const cardId of delta.removals) this.cards.delete(cardId);
    this.ids = null;
    this.versionValue = delta.version;
    return true;
  }

  /** Null when the card may draw `volume` litres for `price`, else why not. */
  check(cardId: string, volume: number, price: number, time: Date): CardRefusal | null {
    const held = this.cards.get(cardId);
    if (!held) return { cardId, reason: 'unknown' };
    if (held.entry.status === 'blocked') return { cardId, reason: 'blocked' };
    const limit = held.entry.dailyLimitLitres;
    if (
      limit !== null &&
      this.drawnOn(cardId, localDay(time, this.timeZone)) + millilitres(volume) > millilitres(limit)
    )
      return { cardId, reason: 'over_limit' };
    if (held.balanceCents < cents(price)) return { cardId, reason: 'balance' };
    return null;
  }

  /** Counts a card sale the machine made: its litres today and its price off the balance. */
  record(eventId: string, cardId: string, volume: number, price: number, time: Date): void {
    const day = localDay(time, this.timeZone);
    this.drawn.set(cardId, { day, ml: this.drawnOn(cardId, day) + millilitres(volume) });
    this.unacked.set(eventId, { cardId, cents: cents(price) });
    this.unackedByCard.set(cardId, (this.unackedByCard.get(cardId) ?? 0) + cents(price));
    const held = this.cards.get(cardId);
    if (held) held.balanceCents -= cents(price);
  }

  /** The server committed these sales: later versions of the list count them. */
  acknowledge(eventIds: readonly string[]): void {
    for (const id of eventIds) this.forget(id);
  }

  /** Also for a sale the full flash overwrote: it will never be acknowledged. */
  forget(eventId: string): void {
    const sale = this.unacked.get(eventId);
    if (!sale) return;
    this.unacked.delete(eventId);
    const left = this.unackedByCard.get(sale.cardId)! - sale.cents;
    if (left === 0) this.unackedByCard.delete(sale.cardId);
    else this.unackedByCard.set(sale.cardId, left);
  }

  private put(entry: CardListEntry): void {
    const pending = this.unackedByCard.get(entry.cardId) ?? 0;
    this.cards.set(entry.cardId, { entry, balanceCents: cents(entry.balance) - pending });
  }

  private drawnOn(cardId: string, day: string): number {
    const d = this.drawn.get(cardId);
    return d && d.day === day ? d.ml : 0;
  }
}
