import { Module } from '@nestjs/common';
import { WorkerPriority } from '../common/process-priority.js';
import { DeviceOutboxModule } from '../device-outbox/device-outbox.module.js';
import { EventsModule } from '../events/events.module.js';
import { LedgerModule } from '../ledger/ledger.module.js';
import { SequenceModule } from '../sequence/sequence.module.js';
import { SaleIngestProcessor } from './sale-ingest.processor.js';
import { SaleIngestQueue } from './sale-ingest.queue.js';
import { SaleIngestService } from './sale-ingest.service.js';
import { SalePartitionRepository } from './sale-partition.repository.js';
import { SalePartitions } from './sale-partitions.js';
import { SaleRestIngestService } from './sale-rest-ingest.service.js';
import { SaleController } from './sale.controller.js';
import { SaleRepository } from './sale.repository.js';

/**
 * Sales: the ingest queue every role may feed (broker, REST). SaleRepository is exported for this folder's
 * API and worker modules; other domains never import it (lint: no-foreign-repository).
 */
@Module({ providers: [SaleRepository, SaleIngestQueue], exports: [SaleRepository, SaleIngestQueue] })
export class SaleModule {}

/** REST sales ingest and the sale endpoints (api role). */
@Module({ imports: [SaleModule], controllers: [SaleController], providers: [SaleRestIngestService] })
export class SaleApiModule {}

/**
 * The ingest worker: batches from the queue into PostgreSQL, then acknowledgements; and the month
 * partitions of `sales` (docs/partitions.md) (worker role).
 */
@Module({
  imports: [SaleModule, DeviceOutboxModule, EventsModule, LedgerModule, SequenceModule],
  providers: [
    SaleIngestService,
    SaleIngestProcessor,
    SalePartitionRepository,
    SalePartitions,
    // Inactive until the bootstrap of a worker-only process starts it (docs/performance.md).
    { provide: WorkerPriority, useFactory: () => new WorkerPriority() },
  ],
})
export class SaleWorkerModule {}
