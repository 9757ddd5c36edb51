import { apiRoutes, errorBodySchema, type RouteDef } from '@wv/contracts';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid input: the body names each bad field',
  '401': 'No or bad credentials',
  '403': 'A role that may not call this endpoint',
  '404': 'Unknown resource or outside the caller’s scope',
  '409': 'Conflict',
  '413': 'Body over 1 MB',
  '422': 'A business rule refused it',
  '429': 'Rate limited',
};

function operation(name: string, def: RouteDef): JsonSchema {
  const parameters: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', def.params],
    ['query', def.query],
  ] as const) {
    if (!schema) continue;
    const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [key, prop] of Object.entries(json.properties ?? {})) {
      parameters.push({
        name: key,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(key),
        schema: prop,
      });
    }
  }
  // Money POSTs (cards and float) replay their first answer for a repeated Idempotency-Key.
  if (def.method === 'POST' && (def.tag === 'cards' || def.tag === 'float')) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Same key and body: the first answer is replayed; same key, other body: 422',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  const security: JsonSchema[] = [];
  if (def.access.some((a) => a === 'admin' || a === 'manager' || a === 'attendant')) security.push({ bearer: [] });
  if (def.access.includes('device')) security.push({ deviceKey: [] });
  const responses: JsonSchema = {
    [String(def.status)]: {
      description: 'Success',
      ...(def.response ? { content: { 'application/json': { schema: toSchema(def.response, 'output') } } } : {}),
    },
  };
  for (const [status, description] of Object.entries(ERROR_STATUSES)) {
    responses[status] = {
      description,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
    };
  }
  return {
    operationId: name,
    summary: def.summary,
    description: `Access: ${def.access.join(', ')}`,
    tags: [def.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(def.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(def.body, 'input') } } } }
      : {}),
    ...(security.length && !def.access.includes('public') ? { security } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document, generated from the same route table and schemas the API validates with. */
export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const [name, def] of Object.entries(apiRoutes) as [string, RouteDef][]) {
    const path = `/api${def.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
    paths[path] = { ...(paths[path] ?? {}), [def.method.toLowerCase()]: operation(name, def) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Water Vending Solutions API',
      version: '1.0.0',
      description: 'REST API of the water vending platform (docs/rest-api.md).',
    },
    paths,
    components: {
      schemas: { ErrorBody: toSchema(errorBodySchema, 'output') },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        deviceKey: { type: 'apiKey', in: 'header', name: 'X-Device-Key' },
      },
    },
  };
}
