import type { z } from 'zod';
import type { ErrorBody, RouteDef } from '@wv/contracts';
import { env } from '@/config/env';
import { clearSession, getToken } from './session';

/** A non-OK answer. `body` is the server's `{statusCode, code, message, error?, fields?}` when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Partial<ErrorBody> | null,
    readonly text: string,
  ) {
    super(body?.message ?? (text || `Request failed with status ${status}`));
    this.name = 'ApiError';
  }
}

/** The request never got an answer (offline, DNS, server down). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : 'Network error');
    this.name = 'NetworkError';
  }
}

let unauthorizedHandler: (() => void) | null = null;

/** The app registers where to go when a signed-in call answers 401 (the session is cleared first). */
export function setUnauthorizedHandler(handler: () => void): void {
  unauthorizedHandler = handler;
}

type QueryValue = string | number | boolean | null | undefined;

type RouteInput<R extends RouteDef> = {
  params?: Record<string, string>;
  /** The query string; undefined, null and empty values are left out. */
  query?: R['query'] extends z.ZodType ? { [K in keyof z.input<R['query']>]?: QueryValue } : never;
  body?: R['body'] extends z.ZodType ? z.input<R['body']> : never;
  /** Extra request headers, e.g. `Idempotency-Key` on calls that move money. */
  headers?: Record<string, string>;
};

type RouteOutput<R extends RouteDef> = R['response'] extends z.ZodType ? z.output<R['response']> : unknown;

function buildPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The full URL of a contract route (under the API base), with its path parameters and query. */
export function routeUrl<R extends RouteDef>(route: R, input: Pick<RouteInput<R>, 'params' | 'query'> = {}): string {
  return `${env.apiUrl}${buildPath(route.path, input.params)}${buildQuery(input.query)}`;
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Calls one route of the contract (`apiRoutes` in @wv/contracts): method and path come from there, and
 * the answer is checked against the route's response schema. The bearer token goes with every call
 * except the public ones (login).
 */
export async function callApi<R extends RouteDef>(route: R, input: RouteInput<R> = {}): Promise<RouteOutput<R>> {
  const response = await send(route, input, 'application/json');
  const data = parseBody(await response.text());
  return (route.response ? route.response.parse(data) : data) as RouteOutput<R>;
}

/**
 * Fetches a file answer (an export) of a contract route with the bearer token, so that a signed-in
 * download works without putting the token in a URL. Failures throw like `callApi`.
 */
export async function fetchApiFile<R extends RouteDef>(
  route: R,
  input: Pick<RouteInput<R>, 'params' | 'query'> = {},
): Promise<Blob> {
  const response = await send(route, input, '*/*');
  return response.blob();
}

/**
 * Sends a multipart form (a file upload) to a contract route with the bearer token; the answer is checked and
 * failures throw like `callApi`. The browser sets the multipart Content-Type with its boundary.
 */
export async function callApiForm<R extends RouteDef>(
  route: R,
  form: FormData,
  input: Pick<RouteInput<R>, 'params' | 'headers'> = {},
): Promise<RouteOutput<R>> {
  const response = await send(route, input, 'application/json', form);
  const data = parseBody(await response.text());
  return (route.response ? route.response.parse(data) : data) as RouteOutput<R>;
}

async function send<R extends RouteDef>(
  route: R,
  input: RouteInput<R>,
  accept: string,
  form?: FormData,
): Promise<Response> {
  const token = route.access.includes('public') ? null : getToken();
  const headers: Record<string, string> = { Accept: accept, ...input.headers };
  if (input.body !== undefined && !form) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(routeUrl(route, input), {
      method: route.method,
      headers,
      body: form ?? (input.body === undefined ? undefined : JSON.stringify(input.body)),
    });
  } catch (error) {
    throw new NetworkError(error);
  }
  if (response.ok) return response;

  const data = parseBody(await response.text());
  // Only a rejected token ends the session; a refused login (no token sent) is the form's business.
  if (response.status === 401 && token) {
    clearSession();
    unauthorizedHandler?.();
  }
  const body = typeof data === 'object' && data !== null ? (data as Partial<ErrorBody>) : null;
  throw new ApiError(response.status, body, typeof data === 'string' ? data : '');
}

/**
 * The server's own text for a refused call: `error` where the endpoint puts its sentence there
 * (docs/rest-api.md, "Conventions"), else `message`, else the raw text. Undefined when the server never answered.
 */
export function serverText(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return error.body?.error || error.body?.message || error.text || error.message;
}

/**
 * The fields a refused call named (a 400's `fields`, docs/rest-api.md, "Conventions"), by the request's field
 * name, each with the server's first sentence about it. Empty for any other failure.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  const found: Record<string, string> = {};
  if (!(error instanceof ApiError)) return found;
  for (const field of error.body?.fields ?? []) found[field.path] ??= field.message;
  return found;
}

/** The server's sentence for a failed call (for a 400 it already names each bad field). */
export function errorDetail(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
