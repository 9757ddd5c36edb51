import { Injectable, Logger } from '@nestjs/common';
import {
  buildConfigTopic,
  ErrorCode,
  type ConfigPayload,
  type ConfigState,
  type InsertTariffsCommand,
  type MachineSettings,
  type MessageResponse,
  type UpdateWifiRequest,
  type WifiCredentials,
} from '@wv/contracts';
import { DataSource } from 'typeorm';
import type { Actor, Caller } from '../common/actor.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { AppError } from '../common/app-error.js';
import { DomainEvents } from '../events/domain-events.js';
import { DeviceOutbox } from '../device-outbox/device-outbox.js';
import { DeviceDirectory } from '../device/device-directory.js';
import { MachineConfigRepository } from './machine-config.repository.js';

const NO_TARIFFS = { cold: 0, fresh: 0, coldCalb: 0, freshCalb: 0 };

/**
 * Remote configuration: Wi-Fi and tariffs with their history. Every change gets a new version and is
 * published as the machine's retained `config`, so a machine that is offline gets it when it connects.
 */
@Injectable()
export class MachineConfigService {
  private readonly logger = new Logger(MachineConfigService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly configs: MachineConfigRepository,
    private readonly devices: DeviceDirectory,
    private readonly outbox: DeviceOutbox,
    private readonly events: DomainEvents,
    private readonly audit: AuditTrail,
  ) {}

  /** Owner manager, admin, or the machine itself (its key was checked for this espId by the guard). */
  private async assertReadable(caller: Caller, espId: string): Promise<void> {
    if (caller.kind === 'device' && caller.device.espId === espId) return;
    if (caller.kind === 'user' && (await this.devices.findVisible(caller.actor, espId))) return;
    if (caller.kind === 'anonymous' && (await this.devices.exists(espId))) return; // LEGACY_OPEN_DEVICE_READS
    throw new AppError(ErrorCode.DeviceNotFound);
  }

  private async assertWritable(actor: Actor, espId: string): Promise<void> {
    if (!(await this.devices.findVisible(actor, espId))) throw new AppError(ErrorCode.DeviceNotFound);
  }

  async getWifi(caller: Caller, espId: string): Promise<WifiCredentials | MessageResponse> {
    await this.assertReadable(caller, espId);
    const wifi = await this.configs.latestWifi(espId);
    if (!wifi || wifi.ssid === '') return { message: 'No Wi-Fi credentials set' };
    return wifi;
  }

  async updateWifi(actor: Actor, input: UpdateWifiRequest): Promise<MessageResponse> {
    await this.assertWritable(actor, input.espId);
    const version = await this.dataSource.transaction(async (m) => {
      const before = await this.configs.latestWifi(input.espId, m);
      await this.configs.insertWifi(m, input.espId, input.ssid, input.password, actor.userId);
      // The audit trail redacts the password; it shows that it changed, never what it is.
      await this.audit.record(m, {
        actorId: actor.userId,
        action: 'wifi.updated',
        entity: 'wifi',
        entityId: input.espId,
        before,
        after: { ssid: input.ssid, password: input.password },
      });
      return this.configs.bumpVersion(m, input.espId);
    });
    await this.publish(input.espId, version);
    const cleared = input.ssid === '' && input.password === '';
    return { message: cleared ? 'Wi-Fi credentials cleared successfully' : 'Wi-Fi credentials updated successfully' };
  }

  async getSettings(caller: Caller, espId: string): Promise<MachineSettings | MessageResponse> {
    await this.assertReadable(caller, espId);
    const t = await this.configs.latestTariffs(espId);
    if (!t) return { message: 'No settings found' };
    return { cold_tariffs: t.cold, fresh_tariffs: t.fresh, fresh_calb: t.freshCalb, cold_calb: t.coldCalb };
  }

  async insertTariffs(actor: Actor, input: InsertTariffsCommand): Promise<MessageResponse> {
    await this.assertWritable(actor, input.espId);
    const tariffs = {
      cold: input.coldTariffs,
      fresh: input.freshTariffs,
      coldCalb: input.coldCalb,
      freshCalb: input.freshCalb,
    };
    const version = await this.dataSource.transaction(async (m) => {
      const before = await this.configs.latestTariffs(input.espId, m);
      await this.configs.insertTariffs(m, input.espId, tariffs, actor.userId);
      await this.audit.record(m, {
        actorId: actor.userId,
        action: 'tariffs.inserted',
        entity: 'tariffs',
        entityId: input.espId,
        before,
        after: tariffs,
      });
      return this.configs.bumpVersion(m, input.espId);
    });
    await this.publish(input.espId, version);
    return { message: 'Tariffs inserted successfully' };
  }

  async state(actor: Actor, espId: string): Promise<ConfigState> {
    await this.assertWritable(actor, espId);
    const s = (await this.configs.state(espId))!;
    return { version: s.version, appliedVersion: s.appliedVersion, appliedAt: s.appliedAt?.toISOString() ?? null };
  }

  /**
   * Called for machines that just connected: the retained config may have been lost with a broker
   * restart. One read for all of them, and a publish for those that have a config.
   */
  async republishMany(espIds: string[]): Promise<void> {
    for (const { espId, version } of await this.configs.versions(espIds)) {
      if (version > 0) await this.publish(espId, version);
    }
  }

  async applyAck(espId: string, version: number): Promise<void> {
    if (await this.configs.markApplied(espId, version)) {
      this.logger.log(`${espId} applied config version ${version}`);
      this.events.emit('config.applied', { espId, version });
    }
  }

  private async publish(espId: string, version: number): Promise<void> {
    const [wifi, tariffs] = await Promise.all([this.configs.latestWifi(espId), this.configs.latestTariffs(espId)]);
    const payload: ConfigPayload = {
      version,
      wifi: wifi ?? { ssid: '', password: '' },
      tariffs: tariffs ?? NO_TARIFFS,
    };
    await this.outbox.publish(buildConfigTopic(espId), payload, { qos: 1, retain: true });
  }
}
