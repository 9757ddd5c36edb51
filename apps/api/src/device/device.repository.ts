import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Repository } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { scopeDevices } from '../common/scope.js';
import { DeviceEntity } from './device.entity.js';
import { MacAnnouncementEntity } from './mac-announcement.entity.js';

export interface DeviceWithPeople extends DeviceEntity {
  attendantFirstName: string | null;
  attendantLastName: string | null;
}

/** The only place that builds queries on devices and announced MAC addresses. */
@Injectable()
export class DeviceRepository {
  private readonly devices: Repository<DeviceEntity>;
  private readonly macs: Repository<MacAnnouncementEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.devices = dataSource.getRepository(DeviceEntity);
    this.macs = dataSource.getRepository(MacAnnouncementEntity);
  }

  /** Devices the actor may see, by id. */
  listVisible(actor: Actor): Promise<DeviceEntity[]> {
    return scopeDevices(this.devices.createQueryBuilder('d'), actor, 'd').orderBy('d.esp_id', 'ASC').getMany();
  }

  findVisible(
    actor: Actor,
    espId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<DeviceEntity | null> {
    const qb = manager.getRepository(DeviceEntity).createQueryBuilder('d').where('d.esp_id = :espId', { espId });
    return scopeDevices(qb, actor, 'd').getOne();
  }

  /** Row-locked read for changes of owner or attendant; no scope: callers decide with the row in hand. */
  findForUpdate(espId: string, manager: EntityManager): Promise<DeviceEntity | null> {
    return manager
      .getRepository(DeviceEntity)
      .createQueryBuilder('d')
      .where('d.esp_id = :espId', { espId })
      .setLock('pessimistic_write')
      .getOne();
  }

  async exists(espId: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    return (await manager.getRepository(DeviceEntity).countBy({ espId })) > 0;
  }

  listAllIds(): Promise<string[]> {
    return this.devices
      .createQueryBuilder('d')
      .select('d.esp_id', 'id')
      .orderBy('d.esp_id')
      .getRawMany<{ id: string }>()
      .then((r) => r.map((x) => x.id));
  }

  listOwnedIds(): Promise<string[]> {
    return this.devices
      .createQueryBuilder('d')
      .select('d.esp_id', 'id')
      .innerJoin('users', 'u', 'u.id = d.owner_id AND u.deleted_at IS NULL')
      .orderBy('d.esp_id')
      .getRawMany<{ id: string }>()
      .then((r) => r.map((x) => x.id));
  }

  listByOwners(ownerIds: string[]): Promise<DeviceEntity[]> {
    if (ownerIds.length === 0) return Promise.resolve([]);
    return this.devices
      .createQueryBuilder('d')
      .where('d.owner_id IN (:...ownerIds)', { ownerIds })
      .orderBy('d.esp_id')
      .getMany();
  }

  async update(espId: string, changes: Partial<DeviceEntity>, manager: EntityManager): Promise<void> {
    await manager.getRepository(DeviceEntity).update({ espId }, changes);
  }

  async clearAttendant(attendantId: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(DeviceEntity).update({ attendantId }, { attendantId: null });
  }

  async insert(
    device: Pick<DeviceEntity, 'espId' | 'macAddress' | 'keyHash'> & Partial<DeviceEntity>,
    manager: EntityManager,
  ): Promise<void> {
    await manager.getRepository(DeviceEntity).insert({ ...device, keyRotatedAt: new Date() });
  }

  async keyHash(espId: string): Promise<string | null> {
    const row = await this.devices
      .createQueryBuilder('d')
      .addSelect('d.keyHash')
      .where('d.esp_id = :espId', { espId })
      .getOne();
    return row?.keyHash ?? null;
  }

  // ---- announced MAC addresses ----

  async announce(macAddress: string, firmware: string | null): Promise<void> {
    await this.macs
      .createQueryBuilder()
      .insert()
      .values({ macAddress, firmware })
      .orUpdate(['last_seen_at', 'firmware'], ['mac_address'])
      .execute();
  }

  listUnassignedMacs(): Promise<MacAnnouncementEntity[]> {
    return this.macs
      .createQueryBuilder('m')
      .where('m.assigned_esp_id IS NULL')
      .orderBy('m.first_seen_at', 'ASC')
      .getMany();
  }

  findMacForUpdate(macAddress: string, manager: EntityManager): Promise<MacAnnouncementEntity | null> {
    return manager
      .getRepository(MacAnnouncementEntity)
      .createQueryBuilder('m')
      .where('m.mac_address = :macAddress', { macAddress })
      .setLock('pessimistic_write')
      .getOne();
  }

  async markMacAssigned(macAddress: string, espId: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(MacAnnouncementEntity).update({ macAddress }, { assignedEspId: espId });
  }

  async provisionSecretHash(macAddress: string): Promise<string | null | undefined> {
    const row = await this.macs
      .createQueryBuilder('m')
      .addSelect('m.provisionSecretHash')
      .where('m.mac_address = :macAddress', { macAddress })
      .getOne();
    return row ? row.provisionSecretHash : undefined;
  }

  /** Pins a provisioning secret for a MAC unless one is pinned already; true when ours is the pin. */
  async pinProvisionSecret(macAddress: string, secretHash: string): Promise<boolean> {
    await this.macs
      .createQueryBuilder()
      .insert()
      .values({ macAddress, provisionSecretHash: secretHash })
      .orIgnore()
      .execute();
    const result = await this.macs
      .createQueryBuilder()
      .update()
      .set({ provisionSecretHash: secretHash })
      .where('mac_address = :macAddress AND provision_secret_hash IS NULL', { macAddress })
      .execute();
    if ((result.affected ?? 0) > 0) return true;
    return (await this.provisionSecretHash(macAddress)) === secretHash;
  }
}
