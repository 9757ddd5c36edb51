import type { Sale } from '@wv/contracts';
import { describe, expect, it } from '@jest/globals';
import { Outbox } from './outbox.js';

const sale = (eventId: string): Sale => ({ eventId, kind: 'coin', price: 40, volume: 1, waterType: 'pure' });

describe('the outbox', () => {
  it('keeps a sale until a sales/ack names it, whatever else is acknowledged', () => {
    const outbox = new Outbox();
    outbox.add(sale('a'));
    outbox.add(sale('b'));
    outbox.markSent(outbox.pending(), 1);
    expect(outbox.ack(['a', 'unknown', 'a'])).toBe(1);
    expect(outbox.has('a')).toBe(false);
    expect(outbox.has('b')).toBe(true);
    expect(outbox.size).toBe(1);
  });

  it('hands out each sale once per connection and all unacknowledged ones again after a reconnect', () => {
    const outbox = new Outbox();
    for (const id of ['a', 'b', 'c']) outbox.add(sale(id));
    const first = outbox.pending();
    expect(first.map((e) => e.sale.eventId)).toEqual(['a', 'b', 'c']);
    outbox.markSent(first, 1);
    expect(outbox.pending()).toEqual([]);
    expect(outbox.markDelivered(first.slice(0, 2))).toBe(2);
    outbox.ack(['b']);
    expect(outbox.requeueAll()).toBe(2);
    expect(outbox.pending().map((e) => e.sale.eventId)).toEqual(['a', 'c']);
  });

  it('requeues only the sales whose ack is overdue', () => {
    const outbox = new Outbox();
    outbox.add(sale('old'));
    outbox.markSent(outbox.pending(), 1_000);
    outbox.add(sale('new'));
    outbox.markSent(outbox.pending(), 5_000);
    expect(outbox.requeueStale(2_000)).toBe(1);
    expect(outbox.pending().map((e) => e.sale.eventId)).toEqual(['old']);
  });

  it('overwrites the oldest sale when the flash is full, and counts it', () => {
    const outbox = new Outbox(2);
    for (const id of ['a', 'b', 'c']) outbox.add(sale(id));
    expect(outbox.size).toBe(2);
    expect(outbox.has('a')).toBe(false);
    expect(outbox.dropped).toBe(1);
    expect(outbox.pending().map((e) => e.sale.eventId)).toEqual(['b', 'c']);
  });
});
