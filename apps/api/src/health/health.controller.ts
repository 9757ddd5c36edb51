import { Controller, Res } from '@nestjs/common';
import { apiRoutes } from '@wv/contracts';
import type { Response } from 'express';
import { Route } from '../common/route.decorator.js';
import { HealthService } from './health.service.js';

@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Liveness: the process answers. Readiness (database, Redis, broker) is GET /api/health. */
  @Route(apiRoutes.liveness)
  live() {
    return { status: 'ok' as const };
  }

  @Route(apiRoutes.health)
  async check(@Res({ passthrough: true }) res: Response) {
    const result = await this.health.check();
    if (result.status !== 'ok') res.status(503);
    return result;
  }
}
