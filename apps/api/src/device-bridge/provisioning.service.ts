import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DeviceMessage, ProvisioningVerdict } from '@wv/broker';
import { buildAssignmentTopic, helloPayloadSchema, macAddressSchema, macToTopicId, normalizeMac } from '@wv/contracts';
import { timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DeviceKeyService } from '../device/device-key.service.js';
import { ProvisioningRecords, type ProvisioningState } from '../device/provisioning-records.js';
import { MacAnnouncementService, UNASSIGNED_MAC_CAP } from '../device/mac-announcement.service.js';
import { PendingKeySealer } from '../device/pending-key-sealer.js';
import { DeviceOutbox } from '../device-outbox/device-outbox.js';

/**
 * The broker side of provisioning (device protocol: `provision` clients, hello, assignment), with the
 * rules that keep a device key away from anyone but its machine (docs/security.md, provisioning):
 * - the first secret seen for a MAC is pinned, and only while the MAC has no ESP ID;
 * - once it has one, only the pinned client may connect, and only until its machine has connected
 *   with the key (a MAC announced over REST has no assignment to fetch: the admin hands its key over);
 * - a client id that is another machine's ESP ID is refused, so a provisioning connect can never
 *   take that machine's MQTT session over;
 * - the assignment is read from PostgreSQL whenever the pinned client connects, so it survives
 *   restarts and reaches it on whichever broker process it lands.
 */
@Injectable()
export class ProvisioningService {
  private readonly logger = new Logger('Provisioning');
  private readonly sealer: PendingKeySealer;

  constructor(
    private readonly devices: ProvisioningRecords,
    private readonly announcements: MacAnnouncementService,
    private readonly outbox: DeviceOutbox,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.sealer = new PendingKeySealer(config.jwt.secret);
  }

  /** The `verifyProvisioningSecret` hook: decides a provisioning CONNECT. */
  async verifySecret(
    macTopicId: string,
    password: string,
    connection: { remoteAddress?: string },
  ): Promise<ProvisioningVerdict> {
    const mac = normalizeMac(macTopicId);
    const presented = DeviceKeyService.hash(password);
    let state = await this.devices.provisioningState(mac, macTopicId);
    if (state.clientIdIsMachine) return 'identifier-rejected';
    if (!state.known) {
      if (!(await this.announcements.admitNewMac(connection.remoteAddress))) {
        this.logger.warn(`Refused provisioning of ${mac} from ${connection.remoteAddress}: too many new MACs`);
        return 'over-limit';
      }
      if (await this.devices.insertPinned(mac, presented, UNASSIGNED_MAC_CAP)) return true;
      // Not inserted: another connect added it meanwhile, or the list is full.
      state = await this.devices.provisioningState(mac, macTopicId);
      if (!state.known) {
        this.logger.warn(`Refused provisioning of ${mac} from ${connection.remoteAddress}: the MAC list is full`);
        return 'over-limit';
      }
    }
    return this.checkPinned(mac, presented, state);
  }

  private async checkPinned(mac: string, presented: string, state: ProvisioningState): Promise<boolean> {
    // Given an ESP ID: nothing left to fetch unless an assignment waits for the client that pinned its
    // secret before it; and no secret is pinned any more, which is what kept the key from a latecomer.
    if (state.assignedEspId !== null && !state.pending) return false;
    if (state.secretHash === null) {
      if (await this.devices.pinProvisionSecret(mac, presented)) return true;
      state = await this.devices.provisioningState(mac, macToTopicId(mac));
      if (state.secretHash === null) return false;
    }
    if (!sameHash(state.secretHash, presented)) return false;
    await this.devices.touchMac(mac);
    return true;
  }

  /**
   * The pinned client connected: hands it the assignment waiting in PostgreSQL, if any, through this
   * broker, retained so that it also reaches a subscription made after this publish.
   */
  async onProvisioningConnected(
    macTopicId: string,
    publish: (topic: string, payload: string) => Promise<void>,
  ): Promise<void> {
    const macAddress = normalizeMac(macTopicId);
    const pending = await this.devices.pendingAssignment(macAddress);
    if (!pending) return;
    const deviceKey = this.sealer.open(pending.sealedKey, { macAddress, espId: pending.espId });
    if (deviceKey === null) {
      this.logger.warn(
        `The assignment of ${pending.espId} to ${macAddress} cannot be opened (JWT_SECRET changed since); ` +
          'rotate its device key to deliver a new one',
      );
      return;
    }
    await publish(buildAssignmentTopic(macTopicId), JSON.stringify({ espId: pending.espId, deviceKey }));
  }

  /**
   * A machine connected with its key: the assignment it came from has done its job. Deleted from
   * PostgreSQL and, retained, from every broker process, so the key no longer sits anywhere for
   * provisioning and the MAC cannot provision again.
   */
  async onMachinesConnected(espIds: string[]): Promise<void> {
    for (const macAddress of await this.devices.clearPendingAssignments(espIds)) {
      await this.outbox.clearRetained(buildAssignmentTopic(macToTopicId(macAddress)));
    }
  }

  /** A hello: lists the MAC for the admin. Only the client holding the pinned secret can publish it. */
  async onHello(message: Extract<DeviceMessage, { kind: 'hello' }>): Promise<void> {
    const hello = helloPayloadSchema.safeParse(safeJson(message.payload));
    const mac = macAddressSchema.safeParse(hello.success ? hello.data.macAddress : '');
    // The MAC in the payload must be the client's own: a machine announces only itself.
    if (!mac.success || macToTopicId(mac.data) !== message.mac) {
      this.logger.warn(`Ignored a hello from ${message.clientId} whose MAC does not match its client id`);
      return;
    }
    await this.announcements.announceOverMqtt(mac.data, hello.success ? (hello.data.firmware ?? null) : null);
  }
}

function sameHash(storedHex: string, presentedHex: string): boolean {
  const a = Buffer.from(storedHex, 'hex');
  const b = Buffer.from(presentedHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

function safeJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}
