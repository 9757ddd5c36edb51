// Two tenants for the HTTP fuzzer, seeded through the public API with distinctive markers (random
// tokens inside names, ESP IDs, card ids, Wi-Fi credentials, plus the ids the server gives them), and
// the callers the fuzzer plays: no token, garbage, expired, forged, every role, device keys.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { DEVICE_KEY_HEADER } from '@wv/contracts';

const b64url = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** An HS256 JWT (or `alg: none` when secret is null), for tokens the server must refuse. */
export function signJwt(payload, secret) {
  const header = b64url({ alg: secret === null ? 'none' : 'HS256', typ: 'JWT' });
  const body = b64url(payload);
  const signature = secret === null ? '' : createHmac('sha256', secret).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${signature}`;
}

async function call(api, method, path, body, headers = {}) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

async function must(promise, what, ...ok) {
  const res = await promise;
  if (!ok.includes(res.status)) throw new Error(`seeding: ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const bearer = (token) => ({ authorization: `Bearer ${token}` });
const randomMac = (rng) => [...rng.bytes(6)].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');

export async function login(api, identifier, password) {
  return (await must(call(api, 'POST', '/login', { identifier, password }), `login ${identifier}`, 200)).token;
}

async function provision(api, adminToken, rng, espId) {
  const macAddress = randomMac(rng);
  await must(call(api, 'POST', '/devices/announce', { macAddress }), 'announce', 202);
  const { deviceKey } = await must(
    call(api, 'POST', '/assign_id', { macAddress, espId }, bearer(adminToken)),
    'assign_id',
    201,
  );
  return { espId, deviceKey, macAddress };
}

/** Creates an attendant for `espId` through the manager; returns its credentials and markers. */
export async function createAttendant(api, tenant, espId, rng) {
  const mk = `${tenant.label}${rng.alnum(10)}`;
  const person = {
    userId: randomUUID(),
    firstName: `Att${mk}`,
    lastName: `Endant${mk}`,
    username: `att${mk}`,
    password: `pw-${rng.alnum(16)}`,
    phoneNumber: `+2556${String(rng.int(1e8)).padStart(8, '0')}`,
    location: `Town${mk}`,
  };
  await must(
    call(
      api,
      'POST',
      '/attendant/user/register-user',
      { ...person, esp32Id: espId, machine_location: `Stand${mk}` },
      bearer(tenant.manager.token),
    ),
    'register attendant',
    201,
  );
  const token = await login(api, person.phoneNumber, person.password);
  return {
    ...person,
    identifier: person.phoneNumber,
    token,
    espId,
    markers: [mk, person.userId, person.phoneNumber.slice(1)],
  };
}

async function seedTenant(api, adminToken, label, rng) {
  const mk = () => `${label}${rng.alnum(10)}`;
  const tenant = { label, markers: {} };
  const add = (item, ...values) => (tenant.markers[item] ??= []).push(...values);

  const devices = [];
  for (const n of [1, 2]) {
    const m = mk();
    const device = await provision(api, adminToken, rng, `ESP${m}`);
    devices.push(device);
    add(`device${n}`, m, device.macAddress);
  }
  tenant.devices = devices;

  const m = mk();
  const manager = {
    userId: randomUUID(),
    firstName: `Man${m}`,
    lastName: `Ager${m}`,
    username: `man${m}`,
    email: `man${m.toLowerCase()}@fuzz.test`,
    password: `pw-${rng.alnum(16)}`,
    phoneNumber: `+2557${String(rng.int(1e8)).padStart(8, '0')}`,
    location: `City${m}`,
  };
  await must(
    call(
      api,
      'POST',
      '/admin/register-user',
      { ...manager, esp32Id: devices[0].espId, machine_location: `Site${mk()}` },
      bearer(adminToken),
    ),
    'register manager',
    201,
  );
  await must(
    call(
      api,
      'POST',
      '/add/user/devices',
      { userId: manager.userId, esp32Id: devices[1].espId, machine_location: `Site${mk()}` },
      bearer(adminToken),
    ),
    'add device',
    201,
  );
  manager.identifier = manager.email;
  manager.token = await login(api, manager.email, manager.password);
  tenant.manager = manager;
  add('manager', m, manager.userId, manager.phoneNumber.slice(1));

  const attendant = await createAttendant(api, tenant, devices[0].espId, rng);
  tenant.attendant = attendant;
  add('attendant', ...attendant.markers);

  // Float: one approved (the attendant's money for cards), one left pending.
  const att = bearer(attendant.token);
  const man = bearer(manager.token);
  await must(call(api, 'POST', '/attendant/request-float', { amount: 100000 }, att), 'request float', 201);
  await must(
    call(api, 'POST', '/manager/assign-float', { attendantId: attendant.userId, amount: 100000 }, man),
    'assign float',
    201,
  );
  await must(call(api, 'POST', '/attendant/request-float', { amount: 5000 }, att), 'request float', 201);
  const floats = await must(call(api, 'GET', '/attendant/float-requests', undefined, att), 'float requests', 200);
  tenant.floatRequestIds = floats.map((f) => f.requestId);
  add('float', ...tenant.floatRequestIds);

  tenant.cards = [];
  for (let i = 0; i < 2; i++) {
    const c = mk();
    const card = {
      card_id: `CARD${c}`,
      card_holder_first_name: `Holder${c}`,
      card_holder_last_name: `Card${c}`,
      card_balance: 1000,
      card_type: 'prepaid',
    };
    await must(
      call(api, 'POST', '/att/add/user/card', card, { ...att, 'idempotency-key': randomUUID() }),
      'add card',
      201,
    );
    tenant.cards.push(card.card_id);
    add('card', c);
  }

  for (const [n, device] of devices.entries()) {
    const w = mk();
    await must(
      call(
        api,
        'PUT',
        '/update_wifi_credentials',
        { espId: device.espId, ssid: `ssid${w}`, password: `wpass${w}` },
        man,
      ),
      'wifi',
      200,
    );
    add(`device${n + 1}`, w);
    await must(
      call(
        api,
        'POST',
        '/insert_tariffs',
        { espId: device.espId, coldTariffs: 50, freshTariffs: 40, coldCalb: 1.5, freshCalb: 1.25 },
        man,
      ),
      'tariffs',
      201,
    );
    const sales = Array.from({ length: 6 }, (_, i) => ({
      eventId: `ev-${i}-${rng.alnum(8)}`,
      kind: i % 2 ? 'card' : 'coin',
      price: 100 + i,
      volume: 2,
      waterType: 'pure',
      ...(i % 2 ? { cardId: tenant.cards[i % 2] } : {}),
    }));
    await must(
      call(api, 'POST', `/machines/${device.espId}/sales`, sales, { [DEVICE_KEY_HEADER]: device.deviceKey }),
      'ingest',
      202,
    );
  }
  return tenant;
}

/**
 * Seeds tenants A and B and spare devices only the admin uses, and returns the callers.
 * `secret` is the deployment's JWT_SECRET (for an expired but well-signed token).
 */
export async function seedFuzzWorld({ api, admin, secret, rng }) {
  const adminToken = await login(api, admin.email, admin.password);
  const A = await seedTenant(api, adminToken, 'A', rng.fork());
  const B = await seedTenant(api, adminToken, 'B', rng.fork());
  const spare = [];
  for (let i = 0; i < 3; i++) spare.push(await provision(api, adminToken, rng, `SPARE${rng.alnum(8)}`));
  const unassignedMacs = [];
  for (let i = 0; i < 3; i++) {
    const macAddress = randomMac(rng);
    await must(call(api, 'POST', '/devices/announce', { macAddress }), 'announce', 202);
    unassignedMacs.push(macAddress);
  }
  const adminInfo = await must(call(api, 'GET', '/user/info', undefined, bearer(adminToken)), 'admin info', 200);
  const now = Math.floor(Date.now() / 1000);
  const world = {
    api,
    admin: { ...admin, identifier: admin.email, token: adminToken, info: adminInfo },
    A,
    B,
    spare,
    unassignedMacs,
    secret,
  };
  world.callers = buildCallers(world, now);
  // Secrets that no response may ever carry: stored hashes and the fixtures' device keys.
  world.secrets = [A, B].flatMap((t) =>
    t.devices.flatMap((d) => [d.deviceKey, createHash('sha256').update(d.deviceKey).digest('hex')]),
  );
  return world;
}

/** Every caller the fuzzer plays. `tenant` and `hides` decide which markers it may never see. */
export function buildCallers(world, now = Math.floor(Date.now() / 1000)) {
  const { A, B, secret } = world;
  const refused = (name, headers) => ({ name, role: 'none', headers, hides: { A: null, B: null } });
  const callers = [
    refused('anonymous', {}),
    refused('garbage token', { authorization: 'Bearer not.a.token' }),
    refused('expired token', {
      authorization: `Bearer ${signJwt({ sub: A.manager.userId, role: 'manager', iat: now - 3600, exp: now - 2400 }, secret)}`,
    }),
    refused('forged admin token', {
      authorization: `Bearer ${signJwt({ sub: A.manager.userId, role: 'admin', iat: now, exp: now + 1200 }, 'not-the-secret-0123')}`,
    }),
    refused('alg none admin token', {
      authorization: `Bearer ${signJwt({ sub: A.manager.userId, role: 'admin', iat: now, exp: now + 1200 }, null)}`,
    }),
    refused('unknown user token', {
      authorization: `Bearer ${signJwt({ sub: randomUUID(), role: 'admin', iat: now, exp: now + 36000 }, secret)}`,
    }),
    refused('wrong device key', { [DEVICE_KEY_HEADER]: 'x'.repeat(43) }),
    { name: 'admin', role: 'admin', headers: { authorization: `Bearer ${world.admin.token}` }, hides: {} },
  ];
  for (const [label, t, other] of [
    ['A', A, 'B'],
    ['B', B, 'A'],
  ]) {
    const otherDevice = t.attendant.espId === t.devices[0].espId ? 'device2' : 'device1';
    callers.push(
      {
        name: `manager ${label}`,
        role: 'manager',
        tenant: label,
        headers: { authorization: `Bearer ${t.manager.token}` },
        hides: { [other]: null },
      },
      {
        // Roles come from the database: a well-signed token claiming admin is still this manager.
        name: `manager ${label} claiming admin`,
        role: 'manager',
        tenant: label,
        headers: {
          authorization: `Bearer ${signJwt({ sub: t.manager.userId, role: 'admin', iat: now, exp: now + 1200 }, secret)}`,
        },
        hides: { [other]: null },
      },
      {
        name: `attendant ${label}`,
        role: 'attendant',
        tenant: label,
        headers: { authorization: `Bearer ${t.attendant.token}` },
        hides: { [other]: null, [label]: [otherDevice] },
      },
      {
        name: `device ${label}1`,
        role: 'device',
        tenant: label,
        espId: t.devices[0].espId,
        headers: { [DEVICE_KEY_HEADER]: t.devices[0].deviceKey },
        hides: { [other]: null, [label]: ['device2', 'manager', 'attendant', 'card', 'float'] },
        outOfScope: { [other]: null, [label]: ['device2'] },
      },
    );
  }
  return callers;
}

/**
 * The markers `caller` may never see (`hides`), or never act on with success (`outOfScope`: a device
 * names its own tenant's cards in its sales, but never the other device), as [marker, owner] pairs.
 */
export function hiddenMarkers(world, caller, field = 'hides') {
  const out = [];
  const scope = caller[field] ?? caller.hides;
  for (const label of ['A', 'B']) {
    if (!(label in scope)) continue;
    const items = scope[label] ?? Object.keys(world[label].markers);
    for (const item of items) for (const m of world[label].markers[item] ?? []) out.push([m, `${label}.${item}`]);
  }
  return out;
}
