import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  buildAssignmentTopic,
  ErrorCode,
  macToTopicId,
  type AssignIdResponse,
  type MacAddressRow,
  type RotateKeyResponse,
} from '@wv/contracts';
import { DataSource } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail.js';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { DomainEvents } from '../events/domain-events.js';
import { isUniqueViolation } from '../common/pg-errors.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DeviceOutbox } from '../device-outbox/device-outbox.js';
import { BrokerIdentityChanges } from './broker-identity-changes.js';
import { DeviceKeyService } from './device-key.service.js';
import { DeviceRepository } from './device.repository.js';
import { PendingKeySealer } from './pending-key-sealer.js';

/** The device registry: announced MAC addresses, ESP IDs and device keys. */
@Injectable()
export class DeviceService {
  private readonly logger = new Logger(DeviceService.name);
  private readonly sealer: PendingKeySealer;

  constructor(
    private readonly dataSource: DataSource,
    private readonly devices: DeviceRepository,
    private readonly events: DomainEvents,
    private readonly audit: AuditTrail,
    private readonly outbox: DeviceOutbox,
    private readonly brokerIdentities: BrokerIdentityChanges,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.sealer = new PendingKeySealer(config.jwt.secret);
  }

  async listUnassignedMacs(): Promise<MacAddressRow[]> {
    const rows = await this.devices.listUnassignedMacs();
    return rows.map((r) => ({ macAddress: r.macAddress }));
  }

  async assignId(actor: Actor, input: { macAddress: string; espId: string }): Promise<AssignIdResponse> {
    const { key, hash } = DeviceKeyService.generate();
    let overMqtt: boolean;
    try {
      overMqtt = await this.dataSource.transaction(async (m) => {
        const mac = await this.devices.findMacForUpdate(input.macAddress, m);
        // A provisioning connect without a hello is not listed, so it cannot be assigned either.
        if (!mac || mac.announcedVia === null) throw new AppError(ErrorCode.MacNotFound);
        if (mac.assignedEspId)
          throw new AppError(ErrorCode.DeviceIdTaken, `This MAC address already has the ESP ID ${mac.assignedEspId}`);
        if (await this.devices.exists(input.espId, m)) throw new AppError(ErrorCode.DeviceIdTaken);
        await this.devices.insert(
          { espId: input.espId, macAddress: input.macAddress, keyHash: hash, firmware: mac.firmware },
          m,
        );
        await this.brokerIdentities.keyIssued(m, input.espId, key);
        // The key goes over MQTT only to the client that pinned its secret and said hello before this
        // assignment (no secret can be pinned after it). A MAC announced over REST gets its key from
        // the admin only: anyone may announce a MAC over REST, so nothing says who would read it.
        const viaMqtt = mac.announcedVia === 'mqtt' && mac.provisionSecretHash !== null;
        const pending = viaMqtt ? this.sealer.seal(key, { macAddress: input.macAddress, espId: input.espId }) : null;
        await this.devices.markMacAssigned(input.macAddress, input.espId, pending, m);
        // The key is never audited (only that one was issued, and how it reaches the machine).
        await this.audit.record(m, {
          actorId: actor.userId,
          action: 'device.created',
          entity: 'device',
          entityId: input.espId,
          before: null,
          after: {
            espId: input.espId,
            macAddress: input.macAddress,
            firmware: mac.firmware,
            keyIssued: true,
            keyDelivery: viaMqtt ? 'mqtt' : 'admin',
          },
        });
        return viaMqtt;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(ErrorCode.DeviceIdTaken);
      throw error;
    }
    this.logger.log(`Assigned ESP ID ${input.espId} to ${input.macAddress}`);
    if (overMqtt) await this.publishAssignment(input.macAddress, input.espId, key);
    return { message: `ESP ID ${input.espId} assigned to ${input.macAddress}`, deviceKey: key };
  }

  /**
   * Pushes the assignment to every broker process, for a provisioning client that is connected now.
   * The committed row is what counts: a broker reads it again at the client's next connect, so a lost
   * push (Redis down, no broker running, a restart) only delays the delivery.
   */
  private async publishAssignment(macAddress: string, espId: string, deviceKey: string): Promise<void> {
    try {
      await this.outbox.publish(
        buildAssignmentTopic(macToTopicId(macAddress)),
        { espId, deviceKey },
        { qos: 1, retain: true },
      );
    } catch (error) {
      this.logger.warn(
        `Assignment of ${espId} not pushed now (${(error as Error).message}); delivered at its next connect`,
      );
    }
  }

  async rotateKey(actor: Actor, espId: string): Promise<RotateKeyResponse> {
    const { key, hash } = DeviceKeyService.generate();
    const found = await this.dataSource.transaction(async (m) => {
      const device = await this.devices.findForUpdate(espId, m);
      if (!device) return null;
      const keyRotatedAt = new Date();
      await this.devices.update(espId, { keyHash: hash, keyRotatedAt }, m);
      await this.brokerIdentities.keyIssued(m, espId, key);
      // An assignment still waiting for its machine must carry the new key; this is also how the admin
      // recovers one whose sealed key no longer opens (JWT_SECRET changed).
      const macAddress = device.macAddress;
      const resealed =
        !!macAddress && (await this.devices.replacePendingKey(espId, this.sealer.seal(key, { macAddress, espId }), m));
      await this.audit.record(m, {
        actorId: actor.userId,
        action: 'device.key-rotated',
        entity: 'device',
        entityId: espId,
        before: { keyRotatedAt: device.keyRotatedAt },
        after: { keyRotatedAt },
      });
      return { macAddress, resealed };
    });
    if (!found) throw new AppError(ErrorCode.DeviceNotFound);
    this.events.emit('device.key-rotated', { espId });
    if (found.resealed && found.macAddress) await this.publishAssignment(found.macAddress, espId, key);
    return { deviceKey: key };
  }

  listAllIds(): Promise<string[]> {
    return this.devices.listAllIds();
  }

  listOwnedIds(): Promise<string[]> {
    return this.devices.listOwnedIds();
  }
}
