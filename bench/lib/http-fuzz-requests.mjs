// Requests of the HTTP fuzzer, driven by the OpenAPI document: every operation, with path and query
// parameters and bodies generated from its JSON schemas (mostly valid, to get past validation), then
// broken: wrong types, unknown fields, huge strings, deep nesting, malformed JSON, arrays for objects,
// nulls, unicode, numbers at the edges; the caller is any of the seeded callers.
import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER } from '@wv/contracts';

/** The operations of the document: method, path template, parameters, body schema, access list. */
export function operationsOf(doc) {
  const ops = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const access = /Access: (.*)$/.exec(op.description ?? '')?.[1]?.split(', ') ?? [];
      ops.push({
        id: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
        access,
      });
    }
  }
  return ops;
}

const EDGE_NUMBERS = [
  0,
  -0,
  -1,
  0.001,
  0.005,
  1e-10,
  2 ** 31,
  2 ** 53 + 2,
  1e12,
  999999999999.99,
  1e14,
  1e15,
  1e308,
  -1e308,
];
const EDGE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202eRTL',
  'e\u0301\u0301\u0301',
  '👩🏽‍🔧🇹🇿',
  'ﷺ'.repeat(50),
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '%00',
  '../../etc/passwd',
  '{{7*7}}',
  '${jndi:ldap://x}',
  '<img src=x onerror=alert(1)>',
  '\r\nX-Injected: 1',
];
/** Percent-encodes anything; lone surrogates become U+FFFD (raw bad bytes are sent as %ED%A0%80). */
const enc = (s) => encodeURIComponent(String(s).toWellFormed());
const deep = (depth, leaf) => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? { a: v } : [v];
  return v;
};

/** Values for a parameter or field, by its name: the seeded ids of both tenants, spares and junk. */
function poolFor(world, caller, method, key, rng) {
  const { A, B } = world;
  // The admin may move devices between tenants and rotate keys: its writes never touch the
  // fixtures, so that the leak oracle's idea of who owns what stays true. A tenant's caller names
  // its own resources half the time (to get past the scope checks) and either tenant's otherwise.
  let tenants = caller.role === 'admin' && method !== 'GET' ? [] : [A, B];
  if (caller.tenant && rng?.chance(0.5)) tenants = [world[caller.tenant]];
  if (/^(espId|esp32Id|machineId)$/.test(key)) {
    return [...tenants.flatMap((t) => t.devices.map((d) => d.espId)), ...world.spare.map((d) => d.espId), 'ESP-NOPE'];
  }
  if (/^(userId|attendantId|actorId)$/.test(key)) {
    return [
      ...tenants.flatMap((t) => [t.manager.userId, t.attendant.userId]),
      world.admin.info?.userId,
      randomUUID(),
    ].filter(Boolean);
  }
  if (key === 'requestId') return [...tenants.flatMap((t) => t.floatRequestIds), randomUUID()];
  if (/^(card_id|cardId)$/.test(key)) {
    const own = caller.tenant ? world[caller.tenant].cards : [];
    return [...(method === 'GET' || caller.role !== 'device' ? tenants.flatMap((t) => t.cards) : own), 'CARD-NOPE'];
  }
  if (key === 'macAddress') return [...world.unassignedMacs, world.spare[0].macAddress, 'AA:BB:CC:DD:EE:FF'];
  if (key === 'identifier')
    return [A.manager.email, B.attendant.phoneNumber, world.admin.email, 'nobody@fuzz.test', '0712345678'];
  return null;
}

const isoDay = (rng) => new Date(Date.now() - rng.int(400) * 86_400_000).toISOString().slice(0, 10);

function stringFor(rng, schema, key, ctx) {
  const pool = poolFor(ctx.world, ctx.caller, ctx.method, key, rng);
  if (pool && rng.chance(0.85)) return rng.pick(pool);
  const pattern = schema.pattern ?? '';
  if (schema.format === 'uuid') return randomUUID();
  if (pattern.includes('\\d{4}-\\d{2}-\\d{2}')) return isoDay(rng);
  if (schema.format === 'date-time') return new Date(Date.now() - rng.int(1e9)).toISOString();
  if (pattern.includes('[0-9A-Fa-f]{2}'))
    return [...rng.bytes(6)].map((b) => b.toString(16).padStart(2, '0')).join(':');
  if (key === 'email') return `${rng.alnum(8).toLowerCase()}@fuzz.test`;
  if (key === 'phoneNumber') return `+2557${String(rng.int(1e8)).padStart(8, '0')}`;
  const min = schema.minLength ?? 1;
  const max = Math.min(schema.maxLength ?? 24, 24);
  return rng.alnum(Math.max(min, rng.range(min, Math.max(min, max))));
}

function numberFor(rng, schema, key, integer) {
  if (key === 'page') return rng.range(1, 3);
  if (key === 'limit') return rng.pick([10, 25, 50, 100, 500, 1000]);
  const lo = Math.max(schema.minimum ?? 0, -1e6);
  const hi = Math.min(schema.maximum ?? 5000, 1e6);
  const n = lo + rng.next() * (hi - lo);
  return integer ? Math.round(n) : Math.round(n * 100) / 100 || 1;
}

/** A value that satisfies the schema (as far as the fuzzer knows it). */
export function validValue(rng, schema, key, ctx, depth = 0) {
  if (!schema || Object.keys(schema).length === 0) return anyJson(rng, ctx, depth);
  if (schema.anyOf || schema.oneOf) {
    const branches = schema.anyOf ?? schema.oneOf;
    // Decimal strings are accepted beside numbers; a random string rarely is one.
    const numeric = branches.find((b) => b.type === 'number' || b.type === 'integer');
    return validValue(rng, numeric && rng.chance(0.7) ? numeric : rng.pick(branches), key, ctx, depth);
  }
  if ('const' in schema) return schema.const;
  if (schema.enum) return rng.pick(schema.enum);
  if (schema.default !== undefined && rng.chance(0.2)) return schema.default;
  switch (schema.type) {
    case 'object': {
      const out = {};
      for (const [k, s] of Object.entries(schema.properties ?? {})) {
        if ((schema.required ?? []).includes(k) || rng.chance(0.5)) out[k] = validValue(rng, s, k, ctx, depth + 1);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: rng.int(3) }, () => validValue(rng, schema.items, key, ctx, depth + 1));
    case 'string':
      return stringFor(rng, schema, key, ctx);
    case 'integer':
      return numberFor(rng, schema, key, true);
    case 'number':
      return numberFor(rng, schema, key, false);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    default:
      return anyJson(rng, ctx, depth);
  }
}

/** For schema-less bodies (sale ingest): sale-like objects and arrays of them, or anything. */
function anyJson(rng, ctx, depth) {
  if (depth > 2 || rng.chance(0.3)) return rng.pick([null, 1, 'x', true, [], {}]);
  const odd = () => rng.chance(0.1);
  const sale = () => {
    const card = rng.chance(0.4);
    return {
      eventId: odd() ? rng.pick(EDGE_STRINGS) : `fz-${rng.alnum(10)}`,
      kind: odd() ? 'cash' : card ? 'card' : 'coin',
      price: odd() ? rng.pick(EDGE_NUMBERS) : rng.range(1, 900),
      volume: odd() ? rng.pick([-1, 1e9, 0]) : rng.pick([0.5, 1, 20]),
      waterType: odd() ? 'hot' : rng.pick(['pure', 'fresh', 'cold']),
      ...(card ? { cardId: rng.pick(poolFor(ctx.world, ctx.caller, ctx.method, 'cardId', rng)) } : {}),
      ...(rng.chance(0.2) ? { time: rng.pick(['2999-01-01T00:00:00Z', new Date().toISOString(), 'yesterday']) } : {}),
    };
  };
  return rng.chance(0.5) ? sale() : Array.from({ length: rng.pick([1, 3, 50]) }, sale);
}

function safeJson(value) {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Breaks one place of a (valid) value. */
export function breakValue(rng, value, depth = 0) {
  const isObj = value && typeof value === 'object' && !Array.isArray(value);
  if (isObj && Object.keys(value).length && depth < 3 && rng.chance(0.6)) {
    const key = rng.pick(Object.keys(value));
    const copy = { ...value };
    const what = rng.int(10);
    if (what === 0) delete copy[key];
    else if (what === 1)
      copy[rng.pick(['role', 'balance', 'ownerId', 'id', 'isAdmin', 'extra'])] = rng.pick(['admin', 1e6, true]);
    else if (what === 2) return JSON.parse(`{"__proto__":{"role":"admin"},${JSON.stringify(copy).slice(1)}`);
    else copy[key] = breakValue(rng, copy[key], depth + 1);
    return copy;
  }
  switch (rng.int(10)) {
    case 0:
      return rng.pick([null, true, false, 0, '', [], {}, 'null', '1']);
    case 1:
      return 'x'.repeat(rng.pick([65, 257, 10_000, 200_000]));
    case 2:
      return rng.pick(EDGE_STRINGS) + (typeof value === 'string' ? value : '');
    case 3:
      return rng.pick(EDGE_NUMBERS);
    case 4:
      return deep(rng.pick([20, 500, 2000]), value ?? 1);
    case 5:
      return [value];
    case 6:
      return { value };
    case 7:
      return typeof value === 'number'
        ? String(value)
        : typeof value === 'string' && value !== ''
          ? Number(value) || -1
          : 1;
    case 8: {
      // Repeated breaks would multiply: 1000 copies only of something small.
      const small = (safeJson(value)?.length ?? Infinity) < 200;
      return Array.from({ length: small ? rng.pick([2, 1000]) : 2 }, () => value);
    }
    default:
      return typeof value === 'string' ? value.slice(0, rng.int(value.length + 1)) : -(Number(value) || 1);
  }
}

/** The body as bytes: usually JSON of a (broken) value, sometimes malformed text. */
function bodyText(rng, value) {
  // Nested past what JSON.stringify recurses through: sent as a small body instead.
  const json = safeJson(value) ?? '[1]';
  switch (
    rng.weighted([
      [30, 'json'],
      [1, 'deep'],
      [2, 'truncated'],
      [1, 'trailing'],
      [1, 'bom'],
      [1, 'dupkeys'],
      [1, 'huge-number'],
      [1, 'bytes'],
      [1, 'empty'],
      [1, 'oversize'],
    ])
  ) {
    case 'deep': {
      const depth = rng.pick([1000, 100_000]);
      return rng.chance(0.5) ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    }
    case 'truncated':
      return json.slice(0, rng.int(json.length));
    case 'trailing':
      return json + rng.pick(['}', ',', ' x', '{"b":2}']);
    case 'bom':
      return '\ufeff' + json;
    case 'dupkeys':
      return json.startsWith('{"') ? `{"role":"admin",${json.slice(1)}` : json;
    case 'huge-number':
      return json.replace(
        /\d+(\.\d+)?/,
        rng.pick(['1e999', '-1e999', '123456789012345678901234567890', '0x10', '1.', '01']),
      );
    case 'bytes':
      return Buffer.concat([
        Buffer.from(json.slice(0, 10)),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x00]),
        Buffer.from(json.slice(10)),
      ]);
    case 'empty':
      return rng.pick(['', ' ', '\n']);
    case 'oversize':
      return JSON.stringify({ pad: 'x'.repeat(1_100_000) });
    default:
      return json;
  }
}

function pathValue(rng, param, ctx) {
  if (rng.chance(0.85)) return enc(String(validValue(rng, param.schema, param.name, ctx)));
  return rng.pick([
    enc(rng.pick(EDGE_STRINGS) || 'x'),
    'x'.repeat(rng.pick([65, 5000])),
    '%00',
    '%',
    '%E0%A4%A',
    '%ED%A0%80',
    '%C0%AF',
    '..%2F..%2Fadmin',
    '%2e%2e',
    enc('ESP 1'),
    enc(randomUUID().toUpperCase()),
    '-1',
  ]);
}

function queryString(rng, params, ctx) {
  const parts = [];
  for (const p of params) {
    if (!rng.chance(p.required ? 0.95 : 0.6)) continue;
    const name = enc(p.name);
    const value = rng.chance(0.75)
      ? String(validValue(rng, p.schema, p.name, ctx))
      : String(
          rng.pick([
            '',
            '-1',
            '0',
            '1e400',
            '9007199254740993',
            '99999999999999999999',
            'NaN',
            'null',
            '1.5',
            '2024-13-45',
            '0000-00-00',
            'x'.repeat(3000),
            rng.pick(EDGE_STRINGS),
          ]),
        );
    parts.push(`${name}=${enc(value)}`);
    if (rng.chance(0.05)) parts.push(`${name}=${enc(value)}2`);
    if (rng.chance(0.03)) parts.push(`${name}[a]=1`);
  }
  if (rng.chance(0.05)) parts.push(`${rng.pick(['role', 'debug', '__proto__[x]', 'espId', 'sort[$ne]'])}=1`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/**
 * One request: [op, caller, method, url path (with query), headers, body (string|Buffer|undefined)].
 * Callers the route admits are chosen more often, so that most requests reach the handlers.
 */
export function nextRequest(rng, ops, world) {
  const op = rng.pick(ops);
  const admitted = world.callers.filter(
    (c) => op.access.includes(c.role) || (c.role === 'none' && op.access.includes('public')),
  );
  const caller = admitted.length && rng.chance(0.7) ? rng.pick(admitted) : rng.pick(world.callers);
  let method = op.method;
  if (rng.chance(0.02)) method = rng.pick(['PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD', 'GET', 'POST']);
  const ctx = { world, caller, method };
  let path = op.path;
  for (const p of op.params.filter((x) => x.in === 'path')) {
    // A device may only speak for itself; it often does, so that its key gets past the first check.
    const value = caller.role === 'device' && /^espId$/.test(p.name) && rng.chance(0.6) ? caller.espId : null;
    path = path.replace(`{${p.name}}`, value ?? pathValue(rng, p, ctx));
  }
  path += queryString(
    rng,
    op.params.filter((x) => x.in === 'query'),
    ctx,
  );
  const headers = { ...caller.headers };
  let body;
  if (op.body || (method !== 'GET' && method !== 'HEAD' && rng.chance(0.1))) {
    let value = validValue(rng, op.body, '', ctx);
    if (op.id === 'login' && rng.chance(0.3)) {
      // Right passwords too, so that sign-in itself is exercised; only on this route, so that no
      // fuzzed call can change a fixture's password.
      const who = rng.pick([world.admin, world.A.manager, world.B.manager, world.A.attendant, world.B.attendant]);
      value = { identifier: who.identifier, password: who.password };
    }
    const breaks = rng.weighted([
      [4, 0],
      [4, 1],
      [1, rng.range(2, 4)],
    ]);
    for (let i = 0; i < breaks; i++) value = breakValue(rng, value);
    if (rng.chance(0.03)) value = [value];
    body = bodyText(rng, value);
    headers['content-type'] = rng.weighted([
      [30, 'application/json'],
      [1, 'text/plain'],
      [1, 'application/x-www-form-urlencoded'],
      [1, 'application/json; charset=utf-16'],
      [1, 'multipart/form-data; boundary=x'],
    ]);
  }
  if (method === 'POST' && rng.chance(0.5)) {
    headers[IDEMPOTENCY_KEY_HEADER] = rng.weighted([
      [6, randomUUID()],
      [1, 'k'.repeat(300)],
      [1, 'bad key with spaces'],
      [1, 'fixed-key-1'],
    ]);
  }
  if (rng.chance(0.02))
    headers.authorization = rng.pick(['Basic YWRtaW46YWRtaW4=', 'Bearer', 'Bearer a b', `Bearer ${'x'.repeat(5000)}`]);
  return { op, caller, method, path, headers, body };
}
