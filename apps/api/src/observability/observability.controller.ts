import { Controller, Header } from '@nestjs/common';
import { apiRoutes } from '@wv/contracts';
import { Route } from '../common/route.decorator.js';
import { MetricsService } from './metrics.service.js';

@Controller()
export class ObservabilityController {
  constructor(private readonly metrics: MetricsService) {}

  @Route(apiRoutes.metrics)
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape() {
    return this.metrics.metrics();
  }
}
