import { Controller, Res } from '@nestjs/common';
import { ErrorCode } from '@wv/contracts';
import type { Response } from 'express';
import { AppError } from '../common/app-error.js';
import { errorBody } from '../common/error-body.js';
import { Input, Route } from '../common/route.decorator.js';
import { MqttHooksService } from './mqtt-hooks.service.js';
import {
  mqttHookRoutes,
  type MqttAclRequest,
  type MqttAuthRequest,
  type MqttHookResponse,
} from './mqtt-hooks.routes.js';

/** Seconds before the broker's next try is worth it: PostgreSQL restarting or failing over takes seconds. */
const RETRY_AFTER_SECONDS = 10;

/**
 * POST /api/mqtt/auth and /api/mqtt/acl: EMQX's HTTP authentication and HTTP authorization
 * (docs/external-mqtt.md, "HTTP hooks (EMQX and others)"). A verdict is 200 with `result`; a deny
 * is never an error status, which EMQX would read as "ignore" and pass to the next source in its chain.
 */
@Controller()
export class MqttHooksController {
  constructor(private readonly hooks: MqttHooksService) {}

  @Route(mqttHookRoutes.auth)
  async authenticate(
    @Input('body') body: MqttAuthRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MqttHookResponse | Record<string, unknown>> {
    const outcome = await this.hooks.authenticate(body);
    if (outcome === 'allow') return { result: 'allow', is_superuser: false };
    if (outcome === 'deny') return { result: 'deny' };
    // PostgreSQL is unreachable: the usual 503 body, and a deny for a broker that reads the body anyway.
    res.status(503).setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    return { ...errorBody(new AppError(ErrorCode.ServiceUnavailable)), result: 'deny' };
  }

  @Route(mqttHookRoutes.acl)
  authorize(@Input('body') body: MqttAclRequest): MqttHookResponse {
    return { result: this.hooks.authorize(body) };
  }
}
