import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DomainEvents, type DomainEventMap } from '../../src/events/domain-events.js';
import { createAttendant, createManager, provisionDevice } from '../factories/fleet.factory.js';
import { ledgerViolations } from '../factories/money.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

type Manager = Awaited<ReturnType<typeof createManager>>;
type Attendant = Awaited<ReturnType<typeof createAttendant>>;

/**
 * docs/rest-api.md ("Endpoints", "Details"): float is requested by an attendant and approved once, or rejected, by
 * their manager.
 */
describe('float requests', () => {
  let t: TestApp;
  let admin: string;
  let managerA: Manager;
  let managerB: Manager;
  const events: { name: keyof DomainEventMap; payload: unknown }[] = [];

  const request = (a: Attendant, amount: number) =>
    t.http.post('/attendant/request-float', { amount }, { token: a.token });
  const assign = (token: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    t.http.post('/manager/assign-float', body, { token, headers });
  const ownRequests = async (a: Attendant) =>
    (await t.http.get('/attendant/float-requests', { token: a.token })).body as {
      requestId: string;
      status: string;
      requestedAmount: number;
      approvedAmount: number | null;
      requestedAt: string;
      approvedAt: string | null;
    }[];
  const balance = async (a: Attendant) =>
    (await t.http.get('/attendant/float-balance', { token: a.token })).body.balance as number;
  /** A fresh attendant of manager A (on a fresh device), so that tests do not share pending requests. */
  const freshAttendant = async (manager: Manager = managerA) => {
    const device = await provisionDevice(t.http, admin);
    const added = await t.http.post(
      '/add/user/devices',
      { userId: manager.userId, esp32Id: device.espId, machine_location: 'Kimara' },
      { token: admin },
    );
    expect(added.status).toBe(201);
    return createAttendant(t.http, manager.token, device.espId);
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    managerA = await createManager(t.http, admin, 1);
    managerB = await createManager(t.http, admin, 1);
    const domainEvents = t.running.app.get(DomainEvents);
    for (const name of ['float.requested', 'float.updated'] as const) {
      domainEvents.on(name, (payload) => void events.push({ name, payload }));
    }
  });
  afterAll(async () => {
    expect(await ledgerViolations(t.dataSource)).toEqual([]);
    await t.close();
  });

  it("POST /attendant/request-float answers 201 with 'Float request submitted successfully' and tells the manager", async () => {
    const a = await freshAttendant();
    const res = await request(a, 150.25);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: 'Float request submitted successfully' });
    const [mine] = await ownRequests(a);
    expect(mine).toEqual({
      requestId: expect.any(String),
      attendantId: a.userId,
      requestedAmount: 150.25,
      approvedAmount: null,
      status: 'pending',
      requestedAt: expect.any(String),
      approvedAt: null,
    });
    expect(events).toContainEqual({
      name: 'float.requested',
      payload: {
        managerId: managerA.userId,
        event: {
          requestId: mine!.requestId,
          attendantId: a.userId,
          attendantName: 'attendant-first attendant-last',
          requestedAmount: 150.25,
          requestedAt: mine!.requestedAt,
        },
      },
    });
  });

  it('POST /attendant/request-float refuses amounts not above 0 (400) and callers other than attendants', async () => {
    const a = await freshAttendant();
    for (const amount of [0, -1, 1.001, 'x']) expect((await request(a, amount as number)).status).toBe(400);
    expect((await t.http.post('/attendant/request-float', { amount: 1 })).status).toBe(401);
    expect((await t.http.post('/attendant/request-float', { amount: 1 }, { token: managerA.token })).status).toBe(403);
    expect((await t.http.post('/attendant/request-float', { amount: 1 }, { token: admin })).status).toBe(403);
    expect(await ownRequests(a)).toEqual([]);
  });

  it('GET /manager/float-requests lists the pending requests of the manager’s attendants, oldest first', async () => {
    const a1 = await freshAttendant();
    const a2 = await freshAttendant();
    const b1 = await freshAttendant(managerB);
    await request(a1, 10);
    await request(a2, 20);
    await request(a1, 30);
    await request(b1, 99);
    const res = await t.http.get('/manager/float-requests', { token: managerA.token });
    expect(res.status).toBe(200);
    const mine = (res.body as { attendantId: string; requestedAmount: number }[]).filter((r) =>
      [a1.userId, a2.userId].some((id) => id === r.attendantId),
    );
    expect(mine.map((r) => r.requestedAmount)).toEqual([10, 20, 30]);
    expect(mine[0]).toEqual({
      requestId: expect.any(String),
      attendantId: a1.userId,
      attendantName: 'attendant-first attendant-last',
      requestedAmount: 10,
      requestedAt: expect.any(String),
    });
    const times = (res.body as { requestedAt: string }[]).map((r) => Date.parse(r.requestedAt));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    expect(JSON.stringify(res.body)).not.toContain(b1.userId);
    const b = await t.http.get('/manager/float-requests', { token: managerB.token });
    expect(b.body.map((r: { attendantId: string }) => r.attendantId)).toEqual([b1.userId]);
    expect((await t.http.get('/manager/float-requests', { token: a1.token })).status).toBe(403);
    expect((await t.http.get('/manager/float-requests', { token: admin })).status).toBe(403);
    expect((await t.http.get('/manager/float-requests')).status).toBe(401);
  });

  it('GET /attendant/float-requests shows only the attendant’s own requests, newest first', async () => {
    const a = await freshAttendant();
    const other = await freshAttendant();
    await request(a, 1);
    await request(a, 2);
    await request(other, 3);
    expect((await ownRequests(a)).map((r) => r.requestedAmount)).toEqual([2, 1]);
    expect((await t.http.get('/attendant/float-requests', { token: managerA.token })).status).toBe(403);
  });

  it('POST /manager/assign-float approves the given request with the amount, credits the float and tells both', async () => {
    const a = await freshAttendant();
    await request(a, 100);
    await request(a, 200);
    const [second] = await ownRequests(a);
    const res = await assign(managerA.token, { attendantId: a.userId, amount: 180.5, requestId: second!.requestId });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: 'Float assigned successfully' });
    const approved = (await ownRequests(a)).find((r) => r.requestId === second!.requestId)!;
    expect(approved).toMatchObject({ status: 'approved', requestedAmount: 200, approvedAmount: 180.5 });
    expect(approved.approvedAt).toEqual(expect.any(String));
    expect(await balance(a)).toBe(180.5);
    const pending = await t.http.get('/manager/float-requests', { token: managerA.token });
    expect(pending.body.map((r: { requestId: string }) => r.requestId)).not.toContain(second!.requestId);
    expect(events).toContainEqual({
      name: 'float.updated',
      payload: {
        attendantId: a.userId,
        managerId: managerA.userId,
        event: {
          requestId: second!.requestId,
          status: 'approved',
          approvedAmount: 180.5,
          approvedAt: approved.approvedAt,
        },
      },
    });
  });

  it('POST /manager/assign-float without requestId approves the attendant’s oldest pending request', async () => {
    const a = await freshAttendant();
    await request(a, 10);
    await request(a, 20);
    expect((await assign(managerA.token, { attendantId: a.userId, amount: 10 })).status).toBe(201);
    expect((await ownRequests(a)).map((r) => [r.requestedAmount, r.status])).toEqual([
      [20, 'pending'],
      [10, 'approved'],
    ]);
    expect((await assign(managerA.token, { attendantId: a.userId, amount: 20 })).status).toBe(201);
    const none = await assign(managerA.token, { attendantId: a.userId, amount: 20 });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({
      code: 'FloatRequestNotFound',
      error: 'No pending float request for this attendant',
    });
    expect(await balance(a)).toBe(30);
  });

  it('POST /manager/assign-float answers 409 for a request no longer pending and 404 outside the manager’s scope', async () => {
    const a = await freshAttendant();
    const b = await freshAttendant(managerB);
    await request(a, 10);
    await request(a, 11);
    await request(b, 12);
    const [r11, r10] = await ownRequests(a);
    const [rb] = await ownRequests(b);
    expect(
      (await assign(managerA.token, { attendantId: a.userId, amount: 10, requestId: r10!.requestId })).status,
    ).toBe(201);
    const again = await assign(managerA.token, { attendantId: a.userId, amount: 10, requestId: r10!.requestId });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'FloatRequestNotPending',
      error: 'This float request is no longer pending',
    });
    expect(
      (await t.http.post(`/manager/float-requests/${r11!.requestId}/reject`, undefined, { token: managerA.token }))
        .status,
    ).toBe(200);
    expect((await assign(managerA.token, { attendantId: a.userId, amount: 1, requestId: r11!.requestId })).status).toBe(
      409,
    );
    // Another manager's attendant, request, or a request of another attendant: 404, nothing approved.
    expect((await assign(managerA.token, { attendantId: b.userId, amount: 1 })).status).toBe(404);
    expect((await assign(managerA.token, { attendantId: b.userId, amount: 1, requestId: rb!.requestId })).status).toBe(
      404,
    );
    expect((await assign(managerA.token, { attendantId: a.userId, amount: 1, requestId: rb!.requestId })).status).toBe(
      404,
    );
    expect((await assign(managerA.token, { attendantId: randomUUID(), amount: 1 })).status).toBe(404);
    expect((await ownRequests(b))[0]!.status).toBe('pending');
    expect(await balance(a)).toBe(10);
    expect((await assign(a.token, { attendantId: a.userId, amount: 1 })).status).toBe(403);
    expect((await assign(admin, { attendantId: a.userId, amount: 1 })).status).toBe(403);
    expect((await assign(managerA.token, { attendantId: a.userId, amount: 0 })).status).toBe(400);
  });

  it('POST /manager/float-requests/{requestId}/reject rejects once; 409 afterwards; 404 for other tenants', async () => {
    const a = await freshAttendant();
    await request(a, 40);
    const [r] = await ownRequests(a);
    const path = `/manager/float-requests/${r!.requestId}/reject`;
    expect((await t.http.post(path)).status).toBe(401);
    expect((await t.http.post(path, undefined, { token: a.token })).status).toBe(403);
    expect((await t.http.post(path, undefined, { token: managerB.token })).status).toBe(404);
    const res = await t.http.post(path, undefined, { token: managerA.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect((await ownRequests(a))[0]).toMatchObject({ status: 'rejected', approvedAmount: null, approvedAt: null });
    expect((await t.http.post(path, undefined, { token: managerA.token })).status).toBe(409);
    expect(
      (await t.http.post(`/manager/float-requests/${randomUUID()}/reject`, undefined, { token: managerA.token }))
        .status,
    ).toBe(404);
    expect(await balance(a)).toBe(0);
    expect(events).toContainEqual({
      name: 'float.updated',
      payload: {
        attendantId: a.userId,
        managerId: managerA.userId,
        event: { requestId: r!.requestId, status: 'rejected', approvedAmount: null, approvedAt: null },
      },
    });
  });

  it('approves a request once when ten approvals race, with or without idempotency keys', async () => {
    const a = await freshAttendant();
    await request(a, 75);
    const [r] = await ownRequests(a);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        assign(
          managerA.token,
          { attendantId: a.userId, amount: 75, requestId: r!.requestId },
          i % 2 ? { 'idempotency-key': `race-${i}` } : undefined,
        ),
      ),
    );
    const statuses = results.map((x) => x.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(await balance(a)).toBe(75);
    const credits = await t.dataSource.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE reference = $1`, [
      r!.requestId,
    ]);
    expect(credits[0].n).toBe(1);
  });

  it('approves each of three pending requests once, oldest first, when ten oldest-first approvals race', async () => {
    const a = await freshAttendant();
    for (const amount of [1, 2, 3]) await request(a, amount);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => assign(managerA.token, { attendantId: a.userId, amount: 5 })),
    );
    // As if one after the other: three approve the three requests, the other seven find none pending.
    expect(results.map((x) => x.status).sort()).toEqual([201, 201, 201, 404, 404, 404, 404, 404, 404, 404]);
    expect((await ownRequests(a)).map((r) => [r.requestedAmount, r.status])).toEqual([
      [3, 'approved'],
      [2, 'approved'],
      [1, 'approved'],
    ]);
    expect(await balance(a)).toBe(15);
  });

  it('GET /attendant/float-balance is approved float minus card loads and top-ups', async () => {
    const a = await freshAttendant();
    await request(a, 50);
    await assign(managerA.token, { attendantId: a.userId, amount: 50 });
    const card = await t.http.post(
      '/att/add/user/card',
      {
        card_id: `C-${randomUUID()}`,
        card_holder_first_name: 'A',
        card_holder_last_name: 'B',
        card_balance: 12.34,
        card_type: 't',
      },
      { token: a.token },
    );
    expect(card.status).toBe(201);
    expect(await balance(a)).toBe(37.66);
    expect((await t.http.get('/attendant/float-balance', { token: managerA.token })).status).toBe(403);
  });

  it('removing an attendant rejects their pending requests in the same transaction and tells the manager', async () => {
    const a = await freshAttendant();
    await request(a, 5);
    await request(a, 6);
    const ids = (await ownRequests(a)).map((r) => r.requestId);
    const removed = await t.http.delete(`/manager/attendants/${a.userId}`, { token: managerA.token });
    expect(removed.status).toBe(200);
    const rows = await t.dataSource.query(`SELECT status, decided_by FROM float_requests WHERE attendant_id = $1`, [
      a.userId,
    ]);
    expect(rows).toEqual([
      { status: 'rejected', decided_by: managerA.userId },
      { status: 'rejected', decided_by: managerA.userId },
    ]);
    const pending = await t.http.get('/manager/float-requests', { token: managerA.token });
    expect(JSON.stringify(pending.body)).not.toContain(a.userId);
    for (const requestId of ids) {
      expect(events).toContainEqual({
        name: 'float.updated',
        payload: {
          attendantId: a.userId,
          managerId: managerA.userId,
          event: { requestId, status: 'rejected', approvedAmount: null, approvedAt: null },
        },
      });
    }
  });
});
