import {
  applyDecorators,
  createParamDecorator,
  Delete,
  ExecutionContext,
  Get,
  HttpCode,
  Post,
  Put,
  SetMetadata,
} from '@nestjs/common';
import type { RouteDef } from '@wv/contracts';
import type { Request } from 'express';
import type { Actor, Caller } from './actor.js';

export const ROUTE_DEF = Symbol('ROUTE_DEF');

const METHOD = { GET: Get, POST: Post, PUT: Put, DELETE: Delete } as const;

/**
 * Binds a handler to its contract route: path, method, status, who may call it (enforced by the
 * global AccessGuard) and the schemas its input is parsed with (RouteInputInterceptor).
 * A handler without @Route is refused by the guard, so no endpoint can forget its access rule.
 */
export function Route(def: RouteDef): MethodDecorator {
  return applyDecorators(METHOD[def.method](def.path), HttpCode(def.status), SetMetadata(ROUTE_DEF, def));
}

export interface ParsedInput {
  body: unknown;
  query: unknown;
  params: unknown;
}

export type ApiRequest = Request & { input?: ParsedInput; caller?: Caller };

/** The parsed and validated body, query or params of the current route. */
export const Input = createParamDecorator((part: keyof ParsedInput, ctx: ExecutionContext) => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  return req.input?.[part];
});

/** The signed-in user. Only valid on routes whose access lists roles. */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor => {
  const caller = ctx.switchToHttp().getRequest<ApiRequest>().caller;
  if (caller?.kind !== 'user') throw new Error('CurrentActor used on a route without a signed-in user');
  return caller.actor;
});

/** User, device or anonymous: for routes that several kinds of caller may use. */
export const CurrentCaller = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Caller =>
    ctx.switchToHttp().getRequest<ApiRequest>().caller ?? { kind: 'anonymous' },
);
