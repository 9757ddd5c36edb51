import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';

/**
 * Every Redis connection of the program is made here: a client of the single Redis at REDIS_URL, or, when
 * REDIS_CLUSTER_NODES is set, an ioredis `Cluster` (docs/redis-cluster.md). A Cluster answers the same commands,
 * so it is handed around with the `Redis` type; what differs (pub/sub, per-node commands) goes through the helpers
 * below, which check `asCluster`.
 */
export interface RedisConnectionOptions extends RedisOptions {
  /**
   * Subscriber connections only: over a cluster, channels are sharded (SSUBSCRIBE, one subscriber connection per
   * master; ioredis' `shardedSubscribers`). See `subscribe`.
   */
  subscriber?: boolean;
}

/** Options of the whole Cluster rather than of each node connection (ioredis' ClusterOptions). */
const CLUSTER_LEVEL = ['keyPrefix', 'lazyConnect', 'enableOfflineQueue', 'enableReadyCheck'] as const;

export function createRedis(config: AppConfig, options: RedisConnectionOptions): Redis {
  const { subscriber, ...redisOptions } = options;
  if (!config.redisClusterNodes) return new Redis(config.redisUrl, redisOptions);
  const nodes = config.redisClusterNodes.map((node) => {
    const at = node.lastIndexOf(':');
    return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
  });
  const clusterOptions: Record<string, unknown> = { shardedSubscribers: subscriber === true };
  const perNode: RedisOptions = { ...redisOptions };
  for (const key of CLUSTER_LEVEL) {
    if (key in perNode) {
      clusterOptions[key] = perNode[key];
      delete perNode[key];
    }
  }
  // A Cluster implements the same command interface as a Redis client (ioredis' Commander).
  return new Cluster(nodes, { ...clusterOptions, redisOptions: perNode }) as unknown as Redis;
}

/** The client as the Cluster it is (ioredis sets `isCluster` on a Cluster), or undefined for a single Redis. */
export function asCluster(redis: Redis): Cluster | undefined {
  return (redis as unknown as { isCluster?: boolean }).isCluster === true ? (redis as unknown as Cluster) : undefined;
}

/** Where Redis is, for messages: REDIS_URL (redacted by the caller) or the cluster's nodes. */
export function redisTarget(config: AppConfig, redact: (url: string) => string): string {
  return config.redisClusterNodes
    ? `the Redis Cluster ${config.redisClusterNodes.join(',')} (REDIS_CLUSTER_NODES)`
    : `Redis at ${redact(config.redisUrl)}`;
}

/**
 * The prefix of the program's own keys. Over a cluster it is a hash tag, `{wv}:`, so that every key of the program
 * lives in one slot and multi-key commands, MULTI and Lua scripts never cross slots (docs/redis-cluster.md).
 */
export const keyPrefix = (config: AppConfig) =>
  config.redisClusterNodes ? `{${config.redisPrefix}}:` : `${config.redisPrefix}:`;

/**
 * A pub/sub channel of the program. Over a cluster it carries the same hash tag as the keys: channels are sharded
 * (SPUBLISH), and the program's channels share one slot, so that messages published on one connection to two of
 * them stay in order (the device outbox and device revocations rely on it, see SessionRevocation).
 */
export const channelName = (config: AppConfig, name: string) => `${keyPrefix(config)}${name}`;

/**
 * Publishes on a channel made by `channelName`. Over a cluster: SPUBLISH, which ioredis routes by the channel's slot
 * (one node, hence ordered) and to which it applies the client's keyPrefix like to a key, so that prefix is taken
 * off first. Classic PUBLISH on a cluster would go to any node and reach every node through the cluster bus.
 */
export function publish(redis: Redis, channel: string, message: string): Promise<unknown> {
  const cluster = asCluster(redis);
  if (!cluster) return redis.publish(channel, message);
  const prefix = cluster.options.keyPrefix ?? '';
  return cluster.spublish(prefix && channel.startsWith(prefix) ? channel.slice(prefix.length) : channel, message);
}

/**
 * Subscribes a connection made with `subscriber: true` (and no keyPrefix) to channels made by `channelName`; over
 * a cluster through SSUBSCRIBE, all of them in one slot.
 */
export async function subscribe(
  redis: Redis,
  channels: string[],
  onMessage: (channel: string, message: string) => void,
): Promise<void> {
  const cluster = asCluster(redis);
  if (cluster) {
    cluster.on('smessage', onMessage);
    await cluster.ssubscribe(...channels);
  } else {
    redis.on('message', onMessage);
    await redis.subscribe(...channels);
  }
}

/**
 * One connection per master node for commands that concern a node rather than a key (CONFIG GET, INFO): the
 * client itself when it is not a cluster.
 */
export function masterNodes(redis: Redis): Redis[] {
  return asCluster(redis)?.nodes('master') ?? [redis];
}
