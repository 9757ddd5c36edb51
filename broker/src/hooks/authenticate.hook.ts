/**
 * CONNECT: decides who a connection is (docs/device-protocol.md, "Identity and provisioning").
 *
 * A machine: username = ESP ID, password = device key, and the client id must equal the ESP ID.
 * We refuse a different client id (CONNACK 2) instead of rewriting it: MQTT session takeover is
 * keyed by client id, so letting one machine pick another id would let it kick another machine's
 * session off, or keep two sessions of its own alive.
 * A provisioning client: username `provision`, client id = its MAC as 12 upper-case hex digits,
 * password = the secret it chose; the API pins the first secret seen per MAC, and only until the MAC
 * is given an ESP ID. It never takes over a machine's session (see `refuseMachineTakeover`).
 */
import type { Client, ConnectPacket } from 'aedes';
import { espIdSchema, PROVISION_USERNAME } from '@wv/contracts';
import { AuthFailureGuard } from '../auth-failure.guard.js';
import type { DeviceIdentity, ProvisioningVerdict } from '../broker.types.js';
import { ConnackCode, type RefusalError } from '../refusal.js';
import { authorizeDevicePublish } from '../topic-acl.js';
import { byteLength, errorMessage, refuse, remoteAddressOf, type BrokerContext } from './broker-context.js';

const MAC_CLIENT_ID = /^[0-9A-F]{12}$/;

type AuthenticateDone = (error: RefusalError | null, success: boolean | null) => void;

export function createAuthenticate(ctx: BrokerContext) {
  const failures = new AuthFailureGuard(ctx.options.authFailuresPerAddress, ctx.options.authFailureWindowMs);
  return (client: Client, username: string | undefined, password: Buffer | undefined, done: AuthenticateDone) => {
    identify(ctx, failures, client, username, password).then(
      (identity) => {
        ctx.identities.set(client, identity);
        // Aedes stops reading a connection while it authenticates, so it has not seen a device that
        // gave up waiting for its CONNACK and closed the socket; registered, that dead connection would
        // take over the session the device has opened since (MQTT 3.1.1 section 3.1.4). read(0) consumes
        // nothing, but lets the stream report an end of input that already arrived ('end', on the next
        // tick), after which Aedes sees the client closed and drops it instead of registering it.
        client.conn.read?.(0);
        // A slice of connects per turn: a reconnecting fleet must not hold up the sales of others.
        ctx.connects.push(() => done(null, true));
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
  failures: AuthFailureGuard,
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

  // An address past its wrong-key limit is refused without a lookup; keys verified recently still pass.
  const machine = identity.kind === 'machine' ? identity : undefined;
  if (machine && failures.blocked(fields.remoteAddress) && !ctx.hooks.knownMachineKey?.(machine.espId, secret)) {
    const message = 'too many wrong device keys from this address';
    throw refuse(ctx, 'auth-failure-limit', message, fields, ConnackCode.NotAuthorized);
  }

  let accepted: ProvisioningVerdict;
  try {
    accepted =
      identity.kind === 'machine'
        ? await ctx.hooks.authenticateMachine(identity.espId, secret)
        : await ctx.hooks.verifyProvisioningSecret(identity.mac, secret, { remoteAddress: fields.remoteAddress });
  } catch (error) {
    ctx.logger.error('authentication hook failed', { ...fields, error: errorMessage(error) });
    throw refuse(ctx, 'auth-unavailable', 'authentication unavailable', fields, ConnackCode.ServerUnavailable);
  }
  if (accepted === 'identifier-rejected') {
    const message = 'provisioning client id names a machine';
    throw refuse(ctx, 'identifier-rejected', message, fields, ConnackCode.IdentifierRejected);
  }
  if (accepted === 'over-limit') {
    // Server unavailable (MQTT 3.1.1 section 3.2.2.3): a real machine simply retries later.
    const message = 'provisioning of new MAC addresses is limited';
    throw refuse(ctx, 'provisioning-limit', message, fields, ConnackCode.ServerUnavailable);
  }
  if (!accepted) {
    if (identity.kind === 'machine') failures.recordFailure(fields.remoteAddress);
    throw refuse(
      ctx,
      'bad-credentials',
      'wrong device key or provisioning secret',
      fields,
      ConnackCode.BadUsernameOrPassword,
    );
  }
  if (identity.kind === 'provisioning') refuseMachineTakeover(ctx, fields);
  refuseStaleConnect(ctx, client, fields);
  return identity;
}

/**
 * MQTT gives a client id's session to the newest connection that uses it (MQTT 3.1.1 section 3.1.4).
 * A provisioning client holds no device key, and its client id (12 upper-case hex digits) can also
 * be an ESP ID: it must never be the connection that ends a machine's session. Checked last, after
 * the API's own check, to leave the shortest gap before Aedes registers the client.
 */
function refuseMachineTakeover(ctx: BrokerContext, fields: { clientId: string } & Record<string, unknown>): void {
  const current = ctx.sessions.get(fields.clientId);
  const holder = current ? ctx.identities.get(current) : undefined;
  if (holder?.kind === 'machine') {
    const message = 'provisioning client id is a connected machine';
    throw refuse(ctx, 'identifier-rejected', message, fields, ConnackCode.IdentifierRejected);
  }
}

/**
 * A connection whose CONNECT was read before that of the session now registered under its client id
 * is stale and must not take that session over (MQTT 3.1.1 section 3.1.4: the newest connection owns a
 * client id). This happens when authentication outlasts the device's CONNACK timeout: the device gives
 * up and reconnects, the retry is registered, and then the abandoned connection finishes
 * authenticating. Aedes pauses reading while it authenticates, so it has not yet seen that the
 * abandoned socket was closed, and would register it and close the device's live session.
 */
function refuseStaleConnect(ctx: BrokerContext, client: Client, fields: Record<string, unknown>): void {
  const current = ctx.sessions.get(client.id);
  if (!current || current === client) return;
  const mine = ctx.connectOrder.get(client) ?? 0;
  if ((ctx.connectOrder.get(current) ?? 0) > mine) {
    const message = 'a newer connection already holds this client id';
    throw refuse(ctx, 'superseded', message, fields, ConnackCode.ServerUnavailable);
  }
}

let connectsRead = 0;

/** Keeps the CONNECT will for `authenticate`, which Aedes does not pass it, and the CONNECT's order. */
export function createPreConnect(ctx: BrokerContext) {
  return (client: Client, packet: ConnectPacket, callback: (error: Error | null, success: boolean) => void) => {
    ctx.connectOrder.set(client, ++connectsRead);
    ctx.wills.set(client, packet.will ? { topic: packet.will.topic, payload: packet.will.payload } : null);
    callback(null, true);
  };
}
