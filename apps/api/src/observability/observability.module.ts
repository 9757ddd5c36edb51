import { Module } from '@nestjs/common';
import { SaleModule } from '../sale/sale.module.js';
import { MetricsService } from './metrics.service.js';
import { ObservabilityController } from './observability.controller.js';

/** Prometheus metrics (the sales queue's depth among them) (RequestContextMiddleware times every HTTP request with it). */
@Module({
  imports: [SaleModule],
  providers: [MetricsService],
  exports: [MetricsService],
})
export class ObservabilityModule {}

/** GET /api/metrics (api role). */
@Module({ imports: [ObservabilityModule], controllers: [ObservabilityController] })
export class ObservabilityApiModule {}
