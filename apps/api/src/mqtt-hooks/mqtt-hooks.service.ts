import { Injectable, Logger } from '@nestjs/common';
import { authorizeDevicePublish, authorizeDeviceSubscribe, type AclSubject } from '@wv/broker';
import { espIdSchema, PROVISION_USERNAME } from '@wv/contracts';
import { ProvisioningService } from '../device-bridge/provisioning.service.js';
import { DeviceKeyService } from '../device/device-key.service.js';
import type { MqttAclRequest, MqttAuthRequest } from './mqtt-hooks.routes.js';

/** A provisioning client's id: its MAC as 12 upper-case hex digits (docs/device-protocol.md). */
const MAC_CLIENT_ID = /^[0-9A-F]{12}$/;

/** `unavailable`: PostgreSQL could not be asked; never an allow. */
export type AuthOutcome = 'allow' | 'deny' | 'unavailable';
export type AclOutcome = 'allow' | 'deny';

type Subject = { ok: true; subject: AclSubject } | { ok: false; reason: string };

/**
 * The external broker's questions (docs/external-mqtt.md, "HTTP hooks (EMQX and others)"), answered
 * with the embedded broker's rules (docs/device-protocol.md, "Identity and provisioning"): who a client
 * is follows from its username and client id, what it may touch from the topic ACL of @wv/broker.
 * Denials are logged at debug level with ids and the reason, never with the password.
 */
@Injectable()
export class MqttHooksService {
  private readonly logger = new Logger('MqttHooks');

  constructor(
    private readonly deviceKeys: DeviceKeyService,
    private readonly provisioning: ProvisioningService,
  ) {}

  /** CONNECT: a machine by its device key, a provisioning client by the secret pinned for its MAC. */
  async authenticate(req: MqttAuthRequest): Promise<AuthOutcome> {
    const who = { clientid: req.clientid, username: req.username, peerhost: req.peerhost };
    if (!req.username || !req.password) return this.deny('connect', who, 'no username or password');
    const found = subjectOf(req.username, req.clientid);
    if (!found.ok) return this.deny('connect', who, found.reason);
    const subject = found.subject;
    try {
      if (subject.kind === 'machine') {
        if (await this.deviceKeys.verify(subject.espId, req.password)) return 'allow';
        return this.deny('connect', who, 'wrong device key or unknown ESP ID');
      }
      const verdict = await this.provisioning.verifySecret(subject.mac, req.password, {
        remoteAddress: req.peerhost || undefined,
      });
      if (verdict === true) return 'allow';
      const reason =
        verdict === 'identifier-rejected'
          ? 'provisioning client id is a machine’s ESP ID'
          : verdict === 'over-limit'
            ? 'provisioning of new MAC addresses is limited'
            : 'wrong provisioning secret, or the MAC may not provision';
      return this.deny('connect', who, reason);
    } catch (error) {
      // The device may be genuine: the broker refuses it for now and it retries (docs/external-mqtt.md).
      this.logger.warn(
        `Refused MQTT connect of ${JSON.stringify(req.clientid)}: authentication unavailable: ${messageOf(error)}`,
      );
      return 'unavailable';
    }
  }

  /** PUBLISH or SUBSCRIBE of a client the broker has authenticated (the password is not sent again). */
  authorize(req: MqttAclRequest): AclOutcome {
    const who = { clientid: req.clientid, username: req.username, topic: req.topic };
    const found = subjectOf(req.username, req.clientid);
    if (!found.ok) return this.deny(req.action, who, found.reason);
    const decision =
      req.action === 'publish'
        ? authorizeDevicePublish(found.subject, req.topic)
        : authorizeDeviceSubscribe(found.subject, req.topic);
    return decision.allowed ? 'allow' : this.deny(req.action, who, decision.denial);
  }

  private deny(what: string, who: Record<string, string | undefined>, reason: string): 'deny' {
    this.logger.debug(`Denied MQTT ${what} ${JSON.stringify(who)}: ${reason}`);
    return 'deny';
  }
}

/**
 * Username `provision` with a MAC client id is a provisioning client; any other username must be a
 * well-formed ESP ID equal to the client id (MQTT session takeover is keyed by client id, so a machine
 * may not pick another's).
 */
function subjectOf(username: string, clientId: string): Subject {
  if (username === PROVISION_USERNAME) {
    if (!MAC_CLIENT_ID.test(clientId)) {
      return { ok: false, reason: 'provisioning client id is not a MAC (12 upper-case hex digits)' };
    }
    return { ok: true, subject: { kind: 'provisioning', mac: clientId } };
  }
  const espId = espIdSchema.safeParse(username);
  if (!espId.success || espId.data !== username) return { ok: false, reason: 'username is not a valid ESP ID' };
  if (clientId !== username) return { ok: false, reason: 'machine client id differs from its ESP ID' };
  return { ok: true, subject: { kind: 'machine', espId: username } };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
