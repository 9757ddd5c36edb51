import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createAttendant, createManager, personFields } from '../../factories/fleet.factory.js';
import { fundAttendant, ledgerViolations, newCardId, registerCard } from '../../factories/money.factory.js';
import type { HttpResult } from '../../support/http-client.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../support/test-app.js';

type Manager = Awaited<ReturnType<typeof createManager>>;
type Attendant = Awaited<ReturnType<typeof createAttendant>>;

/**
 * The attacker is a manager or attendant of tenant B probing identifiers (device IDs, emails, phone
 * numbers, user ids, card IDs, request ids) to learn what tenant A has. Wherever B may not know that
 * A's resource exists, "exists but not yours" must answer exactly as "does not exist": same status,
 * same body (docs/security.md).
 */
describe('other tenant: learning what another tenant has from the answers', () => {
  let t: TestApp;
  let admin: string;
  let managerA: Manager;
  let managerB: Manager;
  let attendantA: Attendant;
  let attendantB: Attendant;
  let cardA: Awaited<ReturnType<typeof registerCard>>;
  let cardB: Awaited<ReturnType<typeof registerCard>>;
  let requestA: string;
  const nowhere = () => `ESP-NEVER-${randomUUID().slice(0, 8)}`;

  const answer = (res: HttpResult) => ({ status: res.status, body: res.body });

  /** Asks the same thing about A's resource and about one that does not exist; both answers must match. */
  async function expectIndistinguishable(
    ask: (id: string) => Promise<HttpResult>,
    theirs: string,
    missing: string,
    expectedStatus: number,
  ) {
    const [a, b] = [await ask(theirs), await ask(missing)];
    // The probed identifier may be echoed back; mask it so that only the answer's shape is compared.
    const masked = (res: HttpResult, id: string) => ({
      status: res.status,
      body: JSON.parse(
        JSON.stringify(res.body ?? null)
          .split(id)
          .join('<id>'),
      ),
    });
    expect(masked(a, theirs)).toEqual(masked(b, missing));
    expect(a.status).toBe(expectedStatus);
    return a;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    managerA = await createManager(t.http, admin, 2);
    managerB = await createManager(t.http, admin, 3);
    attendantA = await createAttendant(t.http, managerA.token, managerA.devices[0]!.espId);
    attendantB = await createAttendant(t.http, managerB.token, managerB.devices[0]!.espId);
    await fundAttendant(t.http, managerA.token, attendantA, 100);
    await fundAttendant(t.http, managerB.token, attendantB, 100);
    cardA = await registerCard(t.http, attendantA.token, { card_balance: 10 });
    cardB = await registerCard(t.http, attendantB.token, { card_balance: 10 });
    const asked = await t.http.post('/attendant/request-float', { amount: 5 }, { token: attendantA.token });
    expect(asked.status).toBe(201);
    const pending = await t.http.get('/manager/float-requests', { token: managerA.token });
    requestA = pending.body[0].requestId;
  });
  afterAll(async () => {
    expect(await ledgerViolations(t.dataSource)).toEqual([]);
    await t.close();
  });

  it('a manager adding another tenant’s device to their account gets the same answer as for a device that does not exist', async () => {
    const theirs = managerA.devices[1]!.espId;
    await expectIndistinguishable(
      (esp32Id) =>
        t.http.post(
          '/add/user/devices',
          { userId: managerB.userId, esp32Id, machine_location: 'Sinza' },
          { token: managerB.token },
        ),
      theirs,
      nowhere(),
      404,
    );
    const stillA = await t.dataSource.query(`SELECT owner_id FROM devices WHERE esp_id = $1`, [theirs]);
    expect(stillA[0].owner_id).toBe(managerA.userId);
    // Admins may know everything: for them an owned device is still a conflict.
    const asAdmin = await t.http.post(
      '/add/user/devices',
      { userId: managerB.userId, esp32Id: theirs, machine_location: 'Sinza' },
      { token: admin },
    );
    expect(asAdmin.status).toBe(409);
  });

  it('a manager registering an attendant with a taken email, phone number or user id gets one answer that names neither the field nor whose it is', async () => {
    const register = (overrides: Record<string, unknown>) =>
      t.http.post(
        '/attendant/user/register-user',
        {
          ...personFields('probe'),
          esp32Id: managerB.devices[1]!.espId,
          machine_location: 'Stand 9',
          ...overrides,
        },
        { token: managerB.token },
      );
    const probes = {
      otherTenantsEmail: await register({ email: managerA.email }),
      otherTenantsPhone: await register({ phoneNumber: attendantA.phoneNumber }),
      otherTenantsUserId: await register({ userId: attendantA.userId }),
      otherTenantsManagerId: await register({ userId: managerA.userId }),
      ownTenantsPhone: await register({ phoneNumber: attendantB.phoneNumber }),
      ownTenantsEmail: await register({ email: managerB.email }),
    };
    const answers = Object.values(probes).map(answer);
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0]!.status).toBe(409);
    expect(answers[0]!.body).toMatchObject({ statusCode: 409, code: 'UserConflict' });
    const text = JSON.stringify(answers[0]!.body).toLowerCase();
    for (const word of ['email', 'phone', 'userid', 'user id', 'username']) expect(text).not.toContain(word);
    expect(text).not.toContain(managerA.email.toLowerCase());
    const device = await t.dataSource.query(`SELECT attendant_id FROM devices WHERE esp_id = $1`, [
      managerB.devices[1]!.espId,
    ]);
    expect(device[0].attendant_id).toBeNull();
  });

  it('an attendant registering a card ID held by another tenant gets the same answer as for one held at their own machine, and no float moves', async () => {
    const floatB = async () =>
      (await t.http.get('/attendant/float-balance', { token: attendantB.token })).body.balance as number;
    const before = await floatB();
    const register = (card_id: string) =>
      t.http.post(
        '/att/add/user/card',
        {
          card_id,
          card_holder_first_name: 'Probe',
          card_holder_last_name: 'Card',
          card_balance: 1,
          card_type: 'household',
        },
        { token: attendantB.token },
      );
    const otherTenants = await register(cardA.card_id);
    const ownMachines = await register(cardB.card_id);
    expect(answer(otherTenants)).toEqual(answer(ownMachines));
    expect(otherTenants.status).toBe(409);
    expect(otherTenants.body).toMatchObject({ code: 'CardAlreadyRegistered', error: 'Card is already registered' });
    const text = JSON.stringify(otherTenants.body);
    for (const secret of [managerA.devices[0]!.espId, managerA.userId, 'Asha', 'Mwita']) {
      expect(text).not.toContain(secret);
    }
    expect(await floatB()).toBe(before);
  });

  it('a manager naming another tenant’s device in any endpoint gets the same answer as for a device that does not exist', async () => {
    const theirs = managerA.devices[0]!.espId;
    const token = managerB.token;
    const reads = [
      (id: string) => `/cards/${id}`,
      (id: string) => `/attendant/${id}/info`,
      (id: string) => `/machines/${id}/card-transactions`,
      (id: string) => `/machines/${id}/coin-transactions`,
      (id: string) => `/machines/${id}/card-transactions.xlsx`,
      (id: string) => `/machines/${id}/coin-transactions.xlsx`,
      (id: string) => `/get_wifi_credentials/${id}`,
      (id: string) => `/machine_settings/${id}`,
      (id: string) => `/machines/${id}/config-state`,
    ];
    for (const path of reads) {
      await expectIndistinguishable((id) => t.http.get(path(id), { token }), theirs, nowhere(), 404);
    }
    await expectIndistinguishable(
      (espId) => t.http.put('/update_wifi_credentials', { espId, ssid: 'Probe', password: 'probe-pass' }, { token }),
      theirs,
      nowhere(),
      404,
    );
    await expectIndistinguishable(
      (espId) =>
        t.http.post(
          '/insert_tariffs',
          { espId, coldTariffs: 1, freshTariffs: 1, coldCalb: 1, freshCalb: 1 },
          { token },
        ),
      theirs,
      nowhere(),
      404,
    );
    await expectIndistinguishable(
      (esp32Id) =>
        t.http.post(
          '/attendant/user/register-user',
          { ...personFields('probe'), esp32Id, machine_location: 'Stand 9' },
          { token },
        ),
      theirs,
      nowhere(),
      404,
    );
  });

  it('a manager naming another tenant’s attendant, float request or card gets the same answer as for one that does not exist', async () => {
    const token = managerB.token;
    await expectIndistinguishable(
      (userId) => t.http.delete(`/manager/attendants/${userId}`, { token }),
      attendantA.userId,
      randomUUID(),
      404,
    );
    await expectIndistinguishable(
      (attendantId) => t.http.post('/manager/assign-float', { attendantId, amount: 5 }, { token }),
      attendantA.userId,
      randomUUID(),
      404,
    );
    await expectIndistinguishable(
      (requestId) =>
        t.http.post('/manager/assign-float', { attendantId: attendantB.userId, amount: 5, requestId }, { token }),
      requestA,
      randomUUID(),
      404,
    );
    await expectIndistinguishable(
      (requestId) => t.http.post(`/manager/float-requests/${requestId}/reject`, undefined, { token }),
      requestA,
      randomUUID(),
      404,
    );
    await expectIndistinguishable(
      (cardId) => t.http.get(`/transactions/${cardId}`, { token }),
      cardA.card_id,
      newCardId(),
      404,
    );
    const pending = await t.http.get('/manager/float-requests', { token: managerA.token });
    expect(pending.body.map((r: { requestId: string }) => r.requestId)).toContain(requestA);
  });

  it('an attendant naming another tenant’s card gets the same answer as for a card that does not exist', async () => {
    const token = attendantB.token;
    await expectIndistinguishable(
      (cardId) => t.http.post(`/att/cards/${cardId}/top-up`, { amount: 1 }, { token }),
      cardA.card_id,
      newCardId(),
      404,
    );
    await expectIndistinguishable(
      (cardId) => t.http.get(`/transactions/${cardId}`, { token }),
      cardA.card_id,
      newCardId(),
      404,
    );
    const cards = await t.http.get(`/cards/${managerA.devices[0]!.espId}`, { token: managerA.token });
    expect(cards.body.find((c: { card_id: string }) => c.card_id === cardA.card_id).card_balance).toBe(10);
  });
});
