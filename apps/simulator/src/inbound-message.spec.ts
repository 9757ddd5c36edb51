import { buildCardsDeltaTopic, buildCardsTopic, buildSalesAckTopic, buildStatusTopic } from '@wv/contracts';
import { describe, expect, it } from '@jest/globals';
import { parseInboundMessage } from './inbound-message.js';

const ESP = 'ESP-IN-1';
const parse = (topic: string, body: unknown) =>
  parseInboundMessage(ESP, topic, Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)));
const entry = { cardId: 'A', status: 'active', balance: 12.5, dailyLimitLitres: null };

describe('what a machine reads from the server', () => {
  it('reads full card lists and deltas by their schemas', () => {
    expect(parse(buildCardsTopic(ESP), { version: 3, cards: [entry] })).toEqual({
      kind: 'cards',
      list: { version: 3, cards: [entry] },
    });
    expect(parse(buildCardsDeltaTopic(ESP), { version: 4, baseVersion: 3, upserts: [], removals: ['A'] })).toEqual({
      kind: 'cards-delta',
      delta: { version: 4, baseVersion: 3, upserts: [], removals: ['A'] },
    });
    expect(parse(buildSalesAckTopic(ESP), { eventIds: ['e1'] })).toEqual({ kind: 'sales-ack', eventIds: ['e1'] });
  });

  it('says why a card list is unusable, and ignores cleared retained messages and foreign topics', () => {
    const bad = parse(buildCardsTopic(ESP), { version: 0, cards: [] });
    expect(bad).toMatchObject({ kind: 'invalid', reason: expect.stringContaining(buildCardsTopic(ESP)) });
    expect(parse(buildCardsDeltaTopic(ESP), '{')).toEqual({
      kind: 'invalid',
      reason: `${buildCardsDeltaTopic(ESP)}: not JSON`,
    });
    expect(parseInboundMessage(ESP, buildCardsTopic(ESP), Buffer.alloc(0))).toEqual({ kind: 'ignored' });
    expect(parse(buildCardsTopic('ESP-OTHER'), { version: 3, cards: [] })).toEqual({ kind: 'ignored' });
    expect(parse(buildStatusTopic(ESP), { online: true })).toEqual({ kind: 'ignored' });
  });
});
