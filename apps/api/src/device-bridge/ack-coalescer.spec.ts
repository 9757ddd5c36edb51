import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { AckCoalescer } from './ack-coalescer.js';

describe('AckCoalescer', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('sends one message per machine for the acks that arrive within the linger, without repeats', () => {
    const sent: [string, unknown][] = [];
    const acks = new AckCoalescer((topic, payload) => sent.push([topic, JSON.parse(payload)]), 20);
    acks.add('wv/v1/machines/A/sales/ack', ['a1', 'a2']);
    acks.add('wv/v1/machines/B/sales/ack', ['b1']);
    acks.add('wv/v1/machines/A/sales/ack', ['a2', 'a3']);
    jest.advanceTimersByTime(19);
    expect(sent).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(sent).toEqual([
      ['wv/v1/machines/A/sales/ack', { eventIds: ['a1', 'a2', 'a3'] }],
      ['wv/v1/machines/B/sales/ack', { eventIds: ['b1'] }],
    ]);
    acks.add('wv/v1/machines/A/sales/ack', ['a4']);
    jest.advanceTimersByTime(20);
    expect(sent.at(-1)).toEqual(['wv/v1/machines/A/sales/ack', { eventIds: ['a4'] }]);
  });

  it('splits a large acknowledgement into messages of at most maxIds ids, and flush sends at once', () => {
    const sent: string[][] = [];
    const acks = new AckCoalescer(
      (_t, payload) => sent.push((JSON.parse(payload) as { eventIds: string[] }).eventIds),
      20,
      3,
    );
    acks.add('t', ['1', '2', '3', '4', '5', '6', '7']);
    acks.flush();
    expect(sent).toEqual([['1', '2', '3'], ['4', '5', '6'], ['7']]);
    jest.advanceTimersByTime(100);
    expect(sent).toHaveLength(3);
  });
});
