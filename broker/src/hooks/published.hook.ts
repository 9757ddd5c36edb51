/**
 * After routing: hands non-sale device messages (status, config/ack, hello) to the API. These need
 * no durability before PUBACK, so the hook is not awaited and a slow API never stalls a device.
 * Sales are skipped here: they already went to `persistSales` before their PUBACK.
 */
import type { AedesPublishPacket, Client } from 'aedes';
import type { DeviceMessage } from '../broker.types.js';
import { authorizeDevicePublish } from '../topic-acl.js';
import { callHook, toBuffer, type BrokerContext } from './broker-context.js';

export function createPublished(ctx: BrokerContext) {
  return (packet: AedesPublishPacket, client: Client | null, callback: (error?: Error | null) => void): void => {
    callback(null);
    // Server-side publishes and $SYS heartbeats have no client.
    const identity = client ? ctx.identities.get(client) : undefined;
    if (!client || !identity || !ctx.hooks.onDeviceMessage) return;
    // A will published after a newer connection took the client id over would mark a machine that
    // is online as offline: the newer session speaks for the device now.
    const current = ctx.sessions.get(client.id);
    if (current && current !== client) return;
    const decision = authorizeDevicePublish(identity, packet.topic);
    if (!decision.allowed || decision.kind === 'sales') return;
    const common = {
      clientId: client.id,
      topic: packet.topic,
      payload: toBuffer(packet.payload),
      receivedAt: new Date(),
    };
    let message: DeviceMessage;
    if (decision.kind === 'hello' && identity.kind === 'provisioning') {
      message = { kind: 'hello', mac: identity.mac, ...common };
    } else if (decision.kind !== 'hello' && identity.kind === 'machine') {
      message = { kind: decision.kind, espId: identity.espId, ...common };
    } else {
      return;
    }
    callHook(ctx, 'onDeviceMessage', () => ctx.hooks.onDeviceMessage?.(message));
  };
}
