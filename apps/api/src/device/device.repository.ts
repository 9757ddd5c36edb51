import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Repository } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { scopeDevices } from '../common/scope.js';
import { returningRows } from '../common/returning-rows.js';
import { DeviceEntity } from './device.entity.js';
import { MacAnnouncementEntity, type AnnouncedVia } from './mac-announcement.entity.js';

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

  /** The key hashes of many machines; a machine that does not exist, or has no key, maps to null. */
  async keyHashes(espIds: string[]): Promise<Map<string, string | null>> {
    const rows: { espId: string; keyHash: string | null }[] = await this.dataSource.query(
      `SELECT esp_id AS "espId", key_hash AS "keyHash" FROM devices WHERE esp_id = ANY($1::text[])`,
      [espIds],
    );
    const hashes = new Map<string, string | null>(espIds.map((id) => [id, null]));
    for (const row of rows) hashes.set(row.espId, row.keyHash);
    return hashes;
  }

  // ---- announced MAC addresses ----

  /**
   * Records an announcement. A new MAC is added only while fewer than `cap` MACs are unassigned,
   * checked in the same statement (concurrent announces may pass the cap by a few); a known MAC is
   * refreshed, and an assigned one left as it is. The first way a MAC was announced sticks
   * (docs/security.md, boundary B): a hello after a REST announce cannot make the key travel over
   * MQTT (anyone may announce a MAC over REST), and a REST announce after a machine's own hello cannot
   * take its key off MQTT (which would stall its provisioning).
   * `refused` when the MAC is new and the cap is reached; `listed` when this call put it on the admins'
   * list (it was unknown, or known only from a bare provisioning connect); `known` otherwise.
   */
  async announce(
    macAddress: string,
    firmware: string | null,
    via: AnnouncedVia,
    cap: number,
  ): Promise<'refused' | 'listed' | 'known'> {
    const rows = returningRows<{ listed: boolean }>(
      await this.dataSource.query(
        `WITH before AS (SELECT announced_via FROM mac_announcements WHERE mac_address = $1)
       INSERT INTO mac_announcements AS m (mac_address, firmware, announced_via)
       SELECT $1, $2, $3
       WHERE EXISTS (SELECT 1 FROM mac_announcements WHERE mac_address = $1)
          OR (SELECT count(*) FROM mac_announcements WHERE assigned_esp_id IS NULL) < $4
       ON CONFLICT (mac_address) DO UPDATE SET
         last_seen_at = now(),
         firmware = coalesce(excluded.firmware, m.firmware),
         announced_via = coalesce(m.announced_via, excluded.announced_via)
       WHERE m.assigned_esp_id IS NULL
       RETURNING (SELECT announced_via FROM before) IS NULL AS listed`,
        [macAddress, firmware, via, cap],
      ),
    );
    if (rows.length > 0) return rows[0]!.listed ? 'listed' : 'known';
    return (await this.macs.existsBy({ macAddress })) ? 'known' : 'refused';
  }

  /** MACs announced (REST or hello) and not yet given an id; a bare provisioning connect is not listed. */
  listUnassignedMacs(): Promise<MacAnnouncementEntity[]> {
    return this.macs
      .createQueryBuilder('m')
      .where('m.assigned_esp_id IS NULL AND m.announced_via IS NOT NULL')
      .orderBy('m.first_seen_at', 'ASC')
      .getMany();
  }

  findMacForUpdate(macAddress: string, manager: EntityManager): Promise<MacAnnouncementEntity | null> {
    return manager
      .getRepository(MacAnnouncementEntity)
      .createQueryBuilder('m')
      .addSelect('m.provisionSecretHash')
      .where('m.mac_address = :macAddress', { macAddress })
      .setLock('pessimistic_write')
      .getOne();
  }

  /** Gives the MAC its ESP ID; `pendingDeviceKey` (sealed) when the key is to be delivered over MQTT. */
  async markMacAssigned(
    macAddress: string,
    espId: string,
    pendingDeviceKey: string | null,
    manager: EntityManager,
  ): Promise<void> {
    await manager
      .getRepository(MacAnnouncementEntity)
      .update({ macAddress }, { assignedEspId: espId, pendingDeviceKey });
  }

  /**
   * What a provisioning CONNECT is decided on: the MAC's row (absent: never seen), and whether the
   * client id is the ESP ID of a machine other than this MAC's own.
   */
  async provisioningState(macAddress: string, clientId: string): Promise<ProvisioningState> {
    const [row] = (await this.dataSource.query(
      `SELECT m.mac_address IS NOT NULL AS "known",
              m.provision_secret_hash AS "secretHash",
              m.assigned_esp_id AS "assignedEspId",
              m.pending_device_key IS NOT NULL AS "pending",
              EXISTS (SELECT 1 FROM devices d WHERE d.esp_id = $2 AND d.mac_address IS DISTINCT FROM $1)
                AS "clientIdIsMachine"
       FROM (SELECT 1) AS one LEFT JOIN mac_announcements m ON m.mac_address = $1`,
      [macAddress, clientId],
    )) as ProvisioningState[];
    return row!;
  }

  /** Adds a MAC first seen on a provisioning connect: pinned, not listed, and only under the cap. */
  async insertPinned(macAddress: string, secretHash: string, cap: number): Promise<boolean> {
    const rows = returningRows(
      await this.dataSource.query(
        `INSERT INTO mac_announcements (mac_address, provision_secret_hash)
       SELECT $1, $2
       WHERE (SELECT count(*) FROM mac_announcements WHERE assigned_esp_id IS NULL) < $3
       ON CONFLICT (mac_address) DO NOTHING
       RETURNING 1`,
        [macAddress, secretHash, cap],
      ),
    );
    return rows.length > 0;
  }

  /** Pins a provisioning secret on a MAC that has none and no ESP ID yet; true when this call pinned it. */
  async pinProvisionSecret(macAddress: string, secretHash: string): Promise<boolean> {
    const result = await this.macs
      .createQueryBuilder()
      .update()
      .set({ provisionSecretHash: secretHash, lastSeenAt: () => 'now()' })
      .where('mac_address = :macAddress AND provision_secret_hash IS NULL AND assigned_esp_id IS NULL', { macAddress })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async touchMac(macAddress: string): Promise<void> {
    await this.macs.update({ macAddress }, { lastSeenAt: () => 'now()' });
  }

  /** The assignment still waiting for MQTT delivery to this MAC, with its sealed key. */
  async pendingAssignment(macAddress: string): Promise<{ espId: string; sealedKey: string } | null> {
    const row = await this.macs
      .createQueryBuilder('m')
      .addSelect('m.pendingDeviceKey')
      .where('m.mac_address = :macAddress AND m.pending_device_key IS NOT NULL', { macAddress })
      .getOne();
    return row?.assignedEspId && row.pendingDeviceKey
      ? { espId: row.assignedEspId, sealedKey: row.pendingDeviceKey }
      : null;
  }

  /** The machines connected with their keys: their pending assignments are done. Returns the MACs they were for. */
  async clearPendingAssignments(espIds: string[]): Promise<string[]> {
    const rows = returningRows<{ mac_address: string }>(
      await this.dataSource.query(
        `UPDATE mac_announcements SET pending_device_key = NULL
       WHERE assigned_esp_id = ANY($1::text[]) AND pending_device_key IS NOT NULL
       RETURNING mac_address`,
        [espIds],
      ),
    );
    return rows.map((row) => row.mac_address);
  }

  /** A rotated key replaces the one still waiting for delivery, if any; true when one was waiting. */
  async replacePendingKey(espId: string, sealedKey: string, manager: EntityManager): Promise<boolean> {
    const result = await manager
      .getRepository(MacAnnouncementEntity)
      .createQueryBuilder()
      .update()
      .set({ pendingDeviceKey: sealedKey })
      .where('assigned_esp_id = :espId AND pending_device_key IS NOT NULL', { espId })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Deletes up to `limit` unassigned MACs last seen before `cutoff`; returns how many. */
  async purgeUnassignedMacs(cutoff: Date, limit: number): Promise<number> {
    const rows = returningRows(
      await this.dataSource.query(
        `DELETE FROM mac_announcements WHERE mac_address IN (
         SELECT mac_address FROM mac_announcements
         WHERE assigned_esp_id IS NULL AND last_seen_at < $1
         LIMIT $2)
       RETURNING 1`,
        [cutoff, limit],
      ),
    );
    return rows.length;
  }
}

export interface ProvisioningState {
  /** False when the MAC was never seen. */
  known: boolean;
  secretHash: string | null;
  assignedEspId: string | null;
  /** An assignment waits for MQTT delivery. */
  pending: boolean;
  clientIdIsMachine: boolean;
}
