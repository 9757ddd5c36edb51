import { Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  type AnnounceRequest,
  type AssignIdResponse,
  type MacAddressRow,
  type RotateKeyResponse,
} from '@wv/contracts';
import { DataSource } from 'typeorm';
import { AuditRepository } from '../audit/audit.repository.js';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { DomainEvents } from '../common/domain-events.js';
import { isUniqueViolation } from '../common/pg-errors.js';
import { DeviceKeyService } from './device-key.service.js';
import { DeviceRepository } from './device.repository.js';

/** The device registry: announced MAC addresses, ESP IDs and device keys. */
@Injectable()
export class DeviceService {
  private readonly logger = new Logger(DeviceService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly devices: DeviceRepository,
    private readonly events: DomainEvents,
    private readonly audit: AuditRepository,
  ) {}

  async announce(input: AnnounceRequest): Promise<void> {
    await this.devices.announce(input.macAddress, input.firmware ?? null);
  }

  async listUnassignedMacs(): Promise<MacAddressRow[]> {
    const rows = await this.devices.listUnassignedMacs();
    return rows.map((r) => ({ macAddress: r.macAddress }));
  }

  async assignId(actor: Actor, input: { macAddress: string; espId: string }): Promise<AssignIdResponse> {
    const { key, hash } = DeviceKeyService.generate();
    try {
      await this.dataSource.transaction(async (m) => {
        const mac = await this.devices.findMacForUpdate(input.macAddress, m);
        if (!mac) throw new AppError(ErrorCode.MacNotFound);
        if (mac.assignedEspId)
          throw new AppError(ErrorCode.DeviceIdTaken, `This MAC address already has the ESP ID ${mac.assignedEspId}`);
        if (await this.devices.exists(input.espId, m)) throw new AppError(ErrorCode.DeviceIdTaken);
        await this.devices.insert(
          { espId: input.espId, macAddress: input.macAddress, keyHash: hash, firmware: mac.firmware },
          m,
        );
        await this.devices.markMacAssigned(input.macAddress, input.espId, m);
        // The key is never audited (only that one was issued).
        await this.audit.record(m, {
          actorId: actor.userId,
          action: 'device.created',
          entity: 'device',
          entityId: input.espId,
          before: null,
          after: { espId: input.espId, macAddress: input.macAddress, firmware: mac.firmware, keyIssued: true },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(ErrorCode.DeviceIdTaken);
      throw error;
    }
    this.logger.log(`Assigned ESP ID ${input.espId} to ${input.macAddress}`);
    this.events.emit('device.assigned', { macAddress: input.macAddress, espId: input.espId, deviceKey: key });
    return { message: `ESP ID ${input.espId} assigned to ${input.macAddress}`, deviceKey: key };
  }

  async rotateKey(actor: Actor, espId: string): Promise<RotateKeyResponse> {
    const { key, hash } = DeviceKeyService.generate();
    const found = await this.dataSource.transaction(async (m) => {
      const device = await this.devices.findForUpdate(espId, m);
      if (!device) return false;
      const keyRotatedAt = new Date();
      await this.devices.update(espId, { keyHash: hash, keyRotatedAt }, m);
      await this.audit.record(m, {
        actorId: actor.userId,
        action: 'device.key-rotated',
        entity: 'device',
        entityId: espId,
        before: { keyRotatedAt: device.keyRotatedAt },
        after: { keyRotatedAt },
      });
      return true;
    });
    if (!found) throw new AppError(ErrorCode.DeviceNotFound);
    this.events.emit('device.key-rotated', { espId });
    return { deviceKey: key };
  }

  listAllIds(): Promise<string[]> {
    return this.devices.listAllIds();
  }

  listOwnedIds(): Promise<string[]> {
    return this.devices.listOwnedIds();
  }
}
