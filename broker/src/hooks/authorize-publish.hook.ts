/**
 * Device PUBLISH: the ACL, the size limit, and durability of sales before their PUBACK.
 *
 * Aedes writes the QoS 1 PUBACK right after this handler calls back (docs/operations.md, "Toolchain notes"), so a sale
 * is only let through once `persistSales` has made it durable (docs/decisions/0001-durable-before-puback.md: a sale
 * counts as received once the broker has acknowledged it). Calling back with an error closes the connection, since MQTT
 * 3.1.1 has no negative PUBACK; the device then redelivers the unacknowledged sale on its next connection. Sale JSON is
 * not validated here: the API keeps invalid payloads as dead letters and the connection stays up.
 */
import type { Client, PublishPacket } from 'aedes';
import { RefusalError } from '../refusal.js';
import { authorizeDevicePublish } from '../topic-acl.js';
import { byteLength, errorMessage, refuse, toBuffer, type BrokerContext } from './broker-context.js';

export function createAuthorizePublish(ctx: BrokerContext) {
  return (client: Client | null, packet: PublishPacket, callback: (error?: Error | null) => void): void => {
    const topic = packet.topic;
    const identity = client ? ctx.identities.get(client) : undefined;
    if (!client || !identity) {
      // Only a will left behind by a vanished client gets here; this broker keeps wills in memory.
      return callback(refuse(ctx, 'publish-denied', 'publish without an authenticated client', { topic }));
    }
    const fields = { clientId: client.id, topic };
    const decision = authorizeDevicePublish(identity, topic);
    if (!decision.allowed) {
      return callback(
        refuse(ctx, 'publish-denied', 'topic outside the device ACL', { ...fields, denial: decision.denial }),
      );
    }
    const size = byteLength(packet.payload);
    if (size > ctx.options.maxPayloadBytes) {
      return callback(refuse(ctx, 'payload-too-large', 'payload over the size limit', { ...fields, size }));
    }
    if (decision.kind !== 'sales' || identity.kind !== 'machine') {
      ctx.stats.publishesAccepted++;
      return callback(null);
    }
    if (ctx.isClosing()) {
      // Not acknowledged, so the machine sends it again to whichever process is up next.
      return callback(refuse(ctx, 'shutting-down', 'sale while shutting down', fields));
    }
    const sale = { espId: identity.espId, topic, payload: toBuffer(packet.payload), receivedAt: new Date() };
    ctx.batcher.add(sale).then(
      () => {
        ctx.stats.publishesAccepted++;
        ctx.durableSales.add(packet);
        callback(null);
      },
      (error: unknown) => {
        // The failed batch was logged once by the batcher; count each unacknowledged sale here.
        ctx.stats.refused('persist-failed');
        callback(new RefusalError('persist-failed', `sale not persisted: ${errorMessage(error)}`));
      },
    );
  };
}
