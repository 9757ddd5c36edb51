import type { CardListEntry } from '@wv/contracts';
import { describe, expect, it } from '@jest/globals';
import { CardList, localDay } from './card-list.js';

const card = (cardId: string, over: Partial<CardListEntry> = {}): CardListEntry => ({
  cardId,
  status: 'active',
  balance: 100,
  dailyLimitLitres: null,
  ...over,
});
/** 10:00 in Dar es Salaam (UTC+3) on 1 March 2026, and the next morning. */
const MORNING = new Date('2026-03-01T07:00:00Z');
const NEXT_MORNING = new Date('2026-03-02T07:00:00Z');

describe('the card list a machine holds', () => {
  it('takes a full list only when it is newer than the one held', () => {
    const list = new CardList();
    expect(list.version).toBe(0);
    expect(list.applyFull({ version: 3, cards: [card('A'), card('B')] })).toBe(true);
    expect(list.applyFull({ version: 3, cards: [card('C')] })).toBe(false);
    expect(list.applyFull({ version: 2, cards: [card('C')] })).toBe(false);
    expect(list.cardIds()).toEqual(['A', 'B']);
    expect(list.applyFull({ version: 4, cards: [card('C')] })).toBe(true);
    expect(list.cardIds()).toEqual(['C']);
    expect(list.version).toBe(4);
  });

  it('applies a delta built on the version it holds: upserts replace or add, removals delete', () => {
    const list = new CardList();
    list.applyFull({ version: 5, cards: [card('A'), card('B', { balance: 7 })] });
    const applied = list.applyDelta({
      version: 6,
      baseVersion: 5,
      upserts: [card('B', { balance: 9.5, status: 'blocked' }), card('C')],
      removals: ['A'],
    });
    expect(applied).toBe(true);
    expect(list.version).toBe(6);
    expect(list.cardIds()).toEqual(['B', 'C']);
    expect(list.card('B')).toEqual(card('B', { balance: 9.5, status: 'blocked' }));
  });

  it('ignores a delta on any other version, and any delta before a full list, keeping what it holds', () => {
    const list = new CardList();
    expect(list.applyDelta({ version: 2, baseVersion: 1, upserts: [card('X')], removals: [] })).toBe(false);
    expect(list.version).toBe(0);
    list.applyFull({ version: 5, cards: [card('A')] });
    for (const baseVersion of [4, 6]) {
      const delta = { version: baseVersion + 1, baseVersion, upserts: [card('X')], removals: ['A'] };
      expect(list.applyDelta(delta)).toBe(false);
    }
    expect(list.version).toBe(5);
    expect(list.cardIds()).toEqual(['A']);
  });

  it('refuses a card it does not hold, a blocked card, and a card removed by a delta', () => {
    const list = new CardList();
    list.applyFull({ version: 1, cards: [card('A'), card('B', { status: 'blocked' })] });
    expect(list.check('Z', 1, 1, MORNING)).toEqual({ cardId: 'Z', reason: 'unknown' });
    expect(list.check('B', 1, 1, MORNING)).toEqual({ cardId: 'B', reason: 'blocked' });
    expect(list.check('A', 1, 1, MORNING)).toBeNull();
    list.applyDelta({ version: 2, baseVersion: 1, upserts: [], removals: ['A'] });
    expect(list.check('A', 1, 1, MORNING)).toEqual({ cardId: 'A', reason: 'unknown' });
  });

  it('counts the litres of each card per local day against its daily limit', () => {
    const list = new CardList('Africa/Dar_es_Salaam');
    list.applyFull({ version: 1, cards: [card('A', { dailyLimitLitres: 20, balance: 1_000 })] });
    list.record('e1', 'A', 10, 10, MORNING);
    list.record('e2', 'A', 9.5, 9.5, MORNING);
    expect(list.check('A', 0.5, 0.5, MORNING)).toBeNull();
    expect(list.check('A', 0.501, 0.5, MORNING)).toEqual({ cardId: 'A', reason: 'over_limit' });
    // 23:59 local is still the same day; 00:00 local is the next one, with the whole limit again.
    expect(list.check('A', 1, 1, new Date('2026-03-01T20:59:00Z'))).toEqual({ cardId: 'A', reason: 'over_limit' });
    expect(list.check('A', 20, 20, new Date('2026-03-01T21:00:00Z'))).toBeNull();
    expect(list.check('A', 20, 20, NEXT_MORNING)).toBeNull();
  });

  it('lowers the balance by each sale and refuses a price the balance does not cover, to the cent', () => {
    const list = new CardList();
    list.applyFull({ version: 1, cards: [card('A', { balance: 10.3 })] });
    list.record('e1', 'A', 1, 0.1, MORNING);
    list.record('e2', 'A', 1, 0.2, MORNING);
    expect(list.card('A')!.balance).toBe(10);
    expect(list.check('A', 1, 10, MORNING)).toBeNull();
    expect(list.check('A', 1, 10.01, MORNING)).toEqual({ cardId: 'A', reason: 'balance' });
    list.record('e3', 'A', 1, 10, MORNING);
    expect(list.card('A')!.balance).toBe(0);
    expect(list.check('A', 0.1, 0.01, MORNING)).toEqual({ cardId: 'A', reason: 'balance' });
  });

  it('sets a new version of a card to its listed balance less its sales not yet acknowledged', () => {
    const list = new CardList();
    list.applyFull({ version: 1, cards: [card('A', { balance: 100 }), card('B', { balance: 50 })] });
    list.record('e1', 'A', 1, 30, MORNING);
    list.record('e2', 'A', 1, 20, MORNING);
    // e1 is committed (its sales/ack came) and counted in the next version; e2 is still in flash.
    list.acknowledge(['e1']);
    list.applyDelta({ version: 2, baseVersion: 1, upserts: [card('A', { balance: 70 })], removals: [] });
    expect(list.card('A')!.balance).toBe(50);
    // A card the delta does not carry keeps the balance the machine worked out.
    expect(list.card('B')!.balance).toBe(50);
    list.acknowledge(['e2']);
    list.applyFull({ version: 3, cards: [card('A', { balance: 50 })] });
    expect(list.card('A')!.balance).toBe(50);
  });

  it('names the local day in the given time zone', () => {
    expect(localDay(new Date('2026-03-01T21:00:00Z'), 'Africa/Dar_es_Salaam')).toBe('2026-03-02');
    expect(localDay(new Date('2026-03-01T21:00:00Z'), 'UTC')).toBe('2026-03-01');
  });
});
