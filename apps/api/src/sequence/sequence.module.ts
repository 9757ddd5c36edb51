import { Module } from '@nestjs/common';
import { CardListModule } from '../card-list/card-list.module.js';
import { DeviceModule } from '../device/device.module.js';
import { SequenceController } from './sequence.controller.js';
import { SequenceRecords } from './sequence-records.js';
import { SequenceTracker } from './sequence-tracker.js';
import { SequenceRepository } from './sequence.repository.js';
import { SequenceService } from './sequence.service.js';

/**
 * Each machine's sale counter (docs/device-protocol.md, "Sequence numbers"): the ingest tracks the
 * highest seq and the gaps in its transaction (SequenceTracker), the broker records the sales a
 * machine still holds (SequenceRecords).
 */
@Module({
  providers: [SequenceRepository, SequenceTracker, SequenceRecords],
  exports: [SequenceTracker, SequenceRecords],
})
export class SequenceModule {}

/** GET /machines/{espId}/sync (api role). */
@Module({
  imports: [CardListModule, DeviceModule],
  controllers: [SequenceController],
  providers: [SequenceRepository, SequenceService],
})
export class SequenceApiModule {}
