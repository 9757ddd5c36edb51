import { Module } from '@nestjs/common';
import { DeviceOutboxModule } from '../device-outbox/device-outbox.module.js';
import { EventsModule } from '../events/events.module.js';
import { CardListDeviceService } from './card-list-device.service.js';
import { CardListFlusher } from './card-list-flusher.js';
import { CardListPlanner } from './card-list-planner.js';
import { CardListSignals } from './card-list-signals.js';
import { CardListVersions } from './card-list-versions.js';
import { CardListRepository } from './card-list.repository.js';

/**
 * Card lists on the machines (docs/device-protocol.md, "Card lists"), what every role runs: changes
 * are noted wherever they happen (sales in the worker, blocks and limits in the api role), and the
 * versions are readable. `CardListDeviceService` is for the broker role.
 */
@Module({
  imports: [EventsModule],
  providers: [CardListRepository, CardListSignals, CardListVersions, CardListDeviceService],
  exports: [CardListVersions, CardListDeviceService, CardListSignals],
})
export class CardListModule {}

/** The flusher: changes into deltas and full lists, published through the device outbox (worker role). */
@Module({
  imports: [CardListModule, DeviceOutboxModule],
  providers: [CardListRepository, CardListPlanner, CardListFlusher],
  exports: [CardListFlusher],
})
export class CardListWorkerModule {}
