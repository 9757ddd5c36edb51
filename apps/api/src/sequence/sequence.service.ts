import { Injectable } from '@nestjs/common';
import { ErrorCode, type MachineSync } from '@wv/contracts';
import { CardListVersions } from '../card-list/card-list-versions.js';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { DeviceDirectory } from '../device/device-directory.js';
import { SequenceRepository } from './sequence.repository.js';

/** GET /machines/{espId}/sync (docs/rest-api.md, "Selling offline"). */
@Injectable()
export class SequenceService {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly devices: DeviceDirectory,
    private readonly cardLists: CardListVersions,
  ) {}

  async sync(actor: Actor, espId: string): Promise<MachineSync> {
    if (!(await this.devices.findVisible(actor, espId))) throw new AppError(ErrorCode.DeviceNotFound);
    const [state, versions] = await Promise.all([this.sequences.syncOf(espId), this.cardLists.forMachine(espId)]);
    return {
      lastSeq: state.lastSeq,
      missing: state.missing,
      queued: state.queued,
      lastSaleAt: state.lastSaleAt?.toISOString() ?? null,
      cardListVersion: versions.cardListVersion,
      cardListAckedVersion: versions.cardListAckedVersion,
    };
  }
}
