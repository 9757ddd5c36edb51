/**
 * CONNECT: decides who a connection is (CONTRACT section 4, "Identity").
 *
 * A machine: username = ESP ID, password = device key, and the client id must equal the ESP ID.
 * We refuse a different client id (CONNACK 2) instead of rewriting it: MQTT session takeover is
 * keyed by client id, so letting one machine pick another id would let it kick another machine's
 * session off, or keep two sessions of its own alive.
 * A provisioning client: username `provision`, client id = its MAC as 12 upper-case hex digits,
 * password = the secret it chose; the API pins the first secret seen per MAC.
 */
import type { Client, ConnectPacket } from 'aedes';
import { espIdSchema, PROVISION_USERNAME } from '@wv/contracts';
import type { DeviceIdentity } from '../broker.types.js';
import { ConnackCode, type RefusalError } from '../refusal.js';
import { authorizeDevicePublish } from '../topic-acl.js';
import { byteLength, errorMessage, refuse, remoteAddressOf, type BrokerContext } from './broker-context.js';

const MAC_CLIENT_ID = /^[0-9A-F]{12}$/;

type AuthenticateDone = (error: RefusalError | null, success: boolean | null) => void;

export function createAuthenticate(ctx: BrokerContext) {
  return (client: Client, username: string | undefined, password: Buffer | undefined, done: AuthenticateDone) => {
    identify(ctx, client, username, password).then(
      (identity) => {
        ctx.identities.set(client, identity);
        done(null, true);
      },
      (error: RefusalError) => done(error, false),
    );
  };
}

function isEspId(value: string): boolean {
  const parsed = espIdSchema.safeParse(value);
  return parsed.success && parsed.data === value;
}

async function identify(
  ctx: BrokerContext,
  client: Client,
  username: string | undefined,
  password: Buffer | undefined,
): Promise<DeviceIdentity> {
  const clientId = client.id;
  const fields = { clientId, username, remoteAddress: remoteAddressOf(client) };
  if (ctx.isClosing()) {
    throw refuse(ctx, 'shutting-down', 'connect while shutting down', fields, ConnackCode.ServerUnavailable);
  }
  const secret = password?.toString('utf8') ?? '';
  if (!username || !secret) {
    throw refuse(
      ctx,
      'bad-credentials',
      'connect without username or password',
      fields,
      ConnackCode.BadUsernameOrPassword,
    );
  }

  let identity: DeviceIdentity;
  if (username === PROVISION_USERNAME) {
    if (!MAC_CLIENT_ID.test(clientId)) {
      const message = 'provisioning client id is not a MAC (12 upper-case hex digits)';
      throw refuse(ctx, 'identifier-rejected', message, fields, ConnackCode.IdentifierRejected);
    }
    identity = { kind: 'provisioning', mac: clientId, clientId };
  } else {
    if (!isEspId(username)) {
      throw refuse(ctx, 'bad-credentials', 'username is not a valid ESP ID', fields, ConnackCode.BadUsernameOrPassword);
    }
    if (clientId !== username) {
      const message = 'machine client id differs from its ESP ID';
      throw refuse(ctx, 'identifier-rejected', message, fields, ConnackCode.IdentifierRejected);
    }
    identity = { kind: 'machine', espId: username, clientId };
  }

  // The will is published on the device's behalf later, so it must pass the same ACL now.
  const will = ctx.wills.get(client);
  ctx.wills.delete(client);
  if (will) {
    const decision = authorizeDevicePublish(identity, will.topic);
    if (!decision.allowed || decision.kind !== 'status' || byteLength(will.payload) > ctx.options.maxPayloadBytes) {
      throw refuse(ctx, 'will-denied', 'will is not the device status topic', { ...fields, topic: will.topic });
    }
  }

  let accepted: boolean;
  try {
    accepted =
      identity.kind === 'machine'
        ? await ctx.hooks.authenticateMachine(identity.espId, secret)
        : await ctx.hooks.verifyProvisioningSecret(identity.mac, secret);
  } catch (error) {
    ctx.logger.error('authentication hook failed', { ...fields, error: errorMessage(error) });
    throw refuse(ctx, 'auth-unavailable', 'authentication unavailable', fields, ConnackCode.ServerUnavailable);
  }
  if (!accepted) {
    throw refuse(
      ctx,
      'bad-credentials',
      'wrong device key or provisioning secret',
      fields,
      ConnackCode.BadUsernameOrPassword,
    );
  }
  return identity;
}

/** Keeps the CONNECT will for `authenticate`, which Aedes does not pass it. */
export function createPreConnect(ctx: BrokerContext) {
  return (client: Client, packet: ConnectPacket, callback: (error: Error | null, success: boolean) => void) => {
    ctx.wills.set(client, packet.will ? { topic: packet.will.topic, payload: packet.will.payload } : null);
    callback(null, true);
  };
}
