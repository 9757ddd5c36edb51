import { Injectable, Logger, NestMiddleware } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service.js';
import { requestContext } from './request-context.js';

const VALID_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane), echoes it in the response,
 * makes it part of every log line written while serving the request, and times the request.
 */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  private readonly logger = new Logger('Http');

  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && VALID_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The route pattern, never the raw path: ids in paths would explode the label set.
      const route = (req.route?.path as string | undefined) ?? 'unmatched';
      this.metrics.httpDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
      requestContext.run({ requestId }, () =>
        this.logger.debug(`${req.method} ${route} ${res.statusCode} ${(seconds * 1000).toFixed(1)} ms`),
      );
    });
    requestContext.run({ requestId }, next);
  }
}
