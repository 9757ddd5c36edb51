import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode, type RouteDef } from '@wv/contracts';
import type { Observable } from 'rxjs';
import { z } from 'zod';
import { AppError } from './app-error.js';
import { validationError } from './error-body.js';
import { MAX_JSON_DEPTH, pathOfUnstorableText, valueTooDeep } from './json-limits.js';
import { ApiRequest, ROUTE_DEF } from './route.decorator.js';

const nothing = z.object({}).strict();
const noBody = z.union([z.undefined(), z.object({}).strict()]);

/**
 * Parses body, query and params with the route's zod schemas after access was granted (so an
 * anonymous caller gets 401, not a validation hint). Parts the route does not declare must be empty:
 * unknown fields are rejected (docs/rest-api.md, "Conventions").
 */
@Injectable()
export class RouteInputInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const def = this.reflector.get<RouteDef | undefined>(ROUTE_DEF, ctx.getHandler());
    if (!def) return next.handle();
    const req = ctx.switchToHttp().getRequest<ApiRequest>();
    req.input = {
      params: parse(def.params ?? nothing, { ...req.params }, 'params'),
      query: parse(def.query ?? nothing, { ...(req.query as object) }, 'query'),
      // Raw device data (sale ingest) is checked item by item, so that good sales of a mixed array are
      // kept and bad ones dead-lettered with their reason (docs/rest-api.md, "Details").
      body: parse(def.body ?? noBody, emptyToUndefined(req.body), 'body', !(def.body instanceof z.ZodUnknown)),
    };
    return next.handle();
  }
}

function emptyToUndefined(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return undefined;
  return body;
}

function parse(schema: z.ZodType, value: unknown, where: 'body' | 'query' | 'params', checkText = true): unknown {
  // Before the schema: an unknown-typed field (sale ingest) would carry deep nesting to code that
  // overflows the stack, and text PostgreSQL cannot store (U+0000, or a lone surrogate that its jsonb
  // refuses) would fail the query: all three were 500s.
  if (valueTooDeep(value)) {
    const message = `nested more than ${MAX_JSON_DEPTH} levels deep`;
    throw new AppError(ErrorCode.ValidationFailed, `${where}: ${message}`, [{ path: where, message }]);
  }
  const unstorable = checkText ? pathOfUnstorableText(value, '') : null;
  if (unstorable !== null) {
    const path = unstorable || where;
    const message = 'must be valid Unicode text without the NUL character';
    throw new AppError(ErrorCode.ValidationFailed, `${path}: ${message}`, [{ path, message }]);
  }
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}
