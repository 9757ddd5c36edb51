import { describe, expect, it } from '@jest/globals';
import type { Readable } from 'node:stream';
import { indexedMemoryPersistence } from '../src/retained-index.js';

const packet = (topic: string, payload: string) => ({
  cmd: 'publish' as const,
  topic,
  payload: Buffer.from(payload),
  qos: 1 as const,
  retain: true,
  dup: false,
  brokerId: 'b',
  brokerCounter: 1,
});

async function topicsOf(stream: Readable): Promise<string[]> {
  const topics: string[] = [];
  for await (const p of stream) topics.push((p as { topic: string }).topic);
  return topics.sort();
}

describe('indexed retained messages', () => {
  it('answers exact filters from the index and wildcard filters as Aedes does, with deletions in both', async () => {
    const persistence = indexedMemoryPersistence();
    // Aedes calls the persistence's promise form (no callback).
    const storeRetained = persistence.storeRetained.bind(persistence) as unknown as (p: object) => Promise<void>;
    const store = (topic: string, payload: string) => storeRetained(packet(topic, payload));
    await store('wv/v1/machines/A/config', '{"version":1}');
    await store('wv/v1/machines/B/config', '{"version":2}');
    await store('wv/v1/machines/A/cards', '{"version":1}');

    expect(await topicsOf(persistence.createRetainedStreamCombi(['wv/v1/machines/A/config']))).toEqual([
      'wv/v1/machines/A/config',
    ]);
    expect(
      await topicsOf(persistence.createRetainedStreamCombi(['wv/v1/machines/A/config', 'wv/v1/machines/A/cards'])),
    ).toEqual(['wv/v1/machines/A/cards', 'wv/v1/machines/A/config']);
    expect(await topicsOf(persistence.createRetainedStream('wv/v1/machines/C/config'))).toEqual([]);
    expect(await topicsOf(persistence.createRetainedStream('wv/v1/machines/+/config'))).toEqual([
      'wv/v1/machines/A/config',
      'wv/v1/machines/B/config',
    ]);

    // An empty retained payload deletes the topic's message (MQTT 3.1.1 section 3.3.1.3).
    await store('wv/v1/machines/A/config', '');
    expect(await topicsOf(persistence.createRetainedStreamCombi(['wv/v1/machines/A/config']))).toEqual([]);
    expect(await topicsOf(persistence.createRetainedStream('wv/v1/machines/#'))).toEqual([
      'wv/v1/machines/A/cards',
      'wv/v1/machines/B/config',
    ]);
  });
});
