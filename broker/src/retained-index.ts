/**
 * Aedes' in-memory persistence finds the retained messages for a subscription by testing every
 * retained topic against it, so each SUBSCRIBE costs one test per retained message. Every machine has
 * retained messages of its own (its config, its card list), so a fleet of N machines reconnecting
 * made N² tests: 20,000 machines took minutes to come back. Machines may only subscribe to exact topics
 * (docs/device-protocol.md, "Topics"), and an exact filter matches only the identical topic name
 * (MQTT 3.1.1 section 4.7), so the index below answers those with one map lookup and leaves filters
 * with wildcards to Aedes' own search.
 */
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type { AedesMemoryPersistence } from 'aedes-persistence';

// A CommonJS module whose types declare an ES default export: loaded as Aedes itself loads it.
const memory = createRequire(import.meta.url)('aedes-persistence') as () => AedesMemoryPersistence;

interface RetainedPacket {
  topic: string;
  payload: Buffer | string;
}

type Persistence = AedesMemoryPersistence;

const isExact = (filter: string) => !filter.includes('+') && !filter.includes('#');

export function indexedMemoryPersistence(): Persistence {
  const persistence = memory();
  const retained = new Map<string, RetainedPacket>();
  const target = persistence as unknown as {
    storeRetained: (packet: RetainedPacket, ...rest: unknown[]) => unknown;
    createRetainedStream: (pattern: string) => Readable;
    createRetainedStreamCombi: (patterns: string[]) => Readable;
  };
  const storeRetained = target.storeRetained.bind(persistence);
  const stream = target.createRetainedStream.bind(persistence);
  const combi = target.createRetainedStreamCombi.bind(persistence);
  // The same rule as the memory persistence: an empty payload deletes the topic's retained message.
  target.storeRetained = (packet, ...rest) => {
    if (packet.payload.length === 0) retained.delete(packet.topic);
    else retained.set(packet.topic, { ...packet });
    return storeRetained(packet, ...rest);
  };
  const lookup = (patterns: string[]) =>
    Readable.from(patterns.flatMap((p) => (retained.has(p) ? [retained.get(p)!] : [])));
  target.createRetainedStream = (pattern) => (isExact(pattern) ? lookup([pattern]) : stream(pattern));
  target.createRetainedStreamCombi = (patterns) => (patterns.every(isExact) ? lookup(patterns) : combi(patterns));
  return persistence;
}
