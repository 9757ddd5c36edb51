import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode, IDEMPOTENCY_KEY_HEADER, type RouteDef } from '@wv/contracts';
import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { AppError } from '../common/app-error.js';
import { ROUTE_DEF, type ApiRequest } from '../common/route.decorator.js';
import type { IdempotentCall } from './idempotency.service.js';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const reflector = new Reflector();

/**
 * The Idempotency-Key of a money call, with the caller and a hash of what was asked (route, path
 * parameters and the parsed body), so that a key is per caller and bound to one request.
 */
export const Idempotency = createParamDecorator((_: unknown, ctx: ExecutionContext): IdempotentCall => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  const res = ctx.switchToHttp().getResponse<Response>();
  const def = reflector.get<RouteDef>(ROUTE_DEF, ctx.getHandler());
  if (req.caller?.kind !== 'user') throw new Error('Idempotency used on a route without a signed-in user');
  const header = req.headers[IDEMPOTENCY_KEY_HEADER];
  let key: string | null = null;
  if (header !== undefined) {
    if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
      const message = 'must be 1 to 255 visible ASCII characters';
      throw new AppError(ErrorCode.ValidationFailed, `Idempotency-Key: ${message}`, [
        { path: 'Idempotency-Key', message },
      ]);
    }
    key = header;
  }
  const request = { method: def.method, path: def.path, params: req.input?.params, body: req.input?.body };
  return {
    key,
    callerId: req.caller.actor.userId,
    requestHash: createHash('sha256').update(canonicalJson(request)).digest('hex'),
    successStatus: def.status,
    markReplayed: () => res.setHeader('Idempotent-Replayed', 'true'),
  };
});

/** JSON with object keys sorted, so that the same body in another key order hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
