/**
 * Device SUBSCRIBE: only the device's own downstream topics, never a wildcard (docs/device-protocol.md, "Topics").
 * A refused filter is answered with SUBACK 0x80 for that filter (MQTT 3.1.1 section 3.9.3) rather than
 * a dropped connection, so a firmware with one stray subscription still gets its config.
 */
import type { Client, Subscription } from 'aedes';
import { authorizeDeviceSubscribe } from '../topic-acl.js';
import { refuse, type BrokerContext } from './broker-context.js';

export function createAuthorizeSubscribe(ctx: BrokerContext) {
  return (
    client: Client,
    subscription: Subscription,
    callback: (error: Error | null, subscription?: Subscription | null) => void,
  ): void => {
    const identity = ctx.identities.get(client);
    const decision = identity
      ? authorizeDeviceSubscribe(identity, subscription.topic)
      : ({ allowed: false, denial: 'not-allowed' } as const);
    if (decision.allowed) return callback(null, subscription);
    refuse(ctx, 'subscribe-denied', 'subscription outside the device ACL', {
      clientId: client.id,
      topic: subscription.topic,
      denial: decision.denial,
    });
    callback(null, null);
  };
}
