import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

describe('remote configuration: Wi-Fi and tariffs', () => {
  let t: TestApp;
  let admin: string;
  let owner: Awaited<ReturnType<typeof createManager>>;
  let other: Awaited<ReturnType<typeof createManager>>;
  let attendant: Awaited<ReturnType<typeof createAttendant>>;
  let espId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    owner = await createManager(t.http, admin);
    other = await createManager(t.http, admin);
    espId = owner.devices[0]!.espId;
    attendant = await createAttendant(t.http, owner.token, espId);
  });
  afterAll(() => t.close());

  it('answers "No Wi-Fi credentials set" and "No settings found" with 200 before anything is set', async () => {
    expect(await t.http.get(`/get_wifi_credentials/${espId}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { message: 'No Wi-Fi credentials set' },
    });
    expect(await t.http.get(`/machine_settings/${espId}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { message: 'No settings found' },
    });
  });

  it('lets the owner manager and the admin write, keeps history, and returns the newest values', async () => {
    expect(
      (
        await t.http.post(
          '/insert_tariffs',
          { espId, coldTariffs: '40', freshTariffs: '25.5', coldCalb: '1', freshCalb: '1.2' },
          { token: owner.token },
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await t.http.post(
          '/insert_tariffs',
          { espId, coldTariffs: 45, freshTariffs: 30, coldCalb: 1.1, freshCalb: 0.95 },
          { token: admin },
        )
      ).status,
    ).toBe(201);
    expect((await t.http.get(`/machine_settings/${espId}`, { token: owner.token })).body).toEqual({
      cold_tariffs: 45,
      fresh_tariffs: 30,
      fresh_calb: 0.95,
      cold_calb: 1.1,
    });
    const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM tariffs WHERE esp_id = $1', [espId]);
    expect(n).toBe(2);

    const updated = await t.http.put(
      '/update_wifi_credentials',
      { espId, ssid: 'Kiosk-5G', password: 'maji-safi-2026' },
      { token: owner.token },
    );
    expect(updated).toMatchObject({ status: 200, body: { message: 'Wi-Fi credentials updated successfully' } });
    expect((await t.http.get(`/get_wifi_credentials/${espId}`, { token: admin })).body).toEqual({
      ssid: 'Kiosk-5G',
      password: 'maji-safi-2026',
    });
    const cleared = await t.http.put(
      '/update_wifi_credentials',
      { espId, ssid: '', password: '' },
      { token: owner.token },
    );
    expect(cleared.body).toEqual({ message: 'Wi-Fi credentials cleared successfully' });
    expect((await t.http.get(`/get_wifi_credentials/${espId}`, { token: owner.token })).body).toEqual({
      message: 'No Wi-Fi credentials set',
    });
  });

  it('names the bad field of a tariff and refuses negative or non-numeric values', async () => {
    const res = await t.http.post(
      '/insert_tariffs',
      { espId, coldTariffs: 'abc', freshTariffs: '-1', coldCalb: '1', freshCalb: '1' },
      { token: owner.token },
    );
    expect(res.status).toBe(400);
    expect(res.body.fields.map((f: { path: string }) => f.path).sort()).toEqual(['coldTariffs', 'freshTariffs']);
  });

  it('hides another tenant’s machine (404) and refuses attendants (403) and anonymous callers (401)', async () => {
    expect((await t.http.get(`/get_wifi_credentials/${espId}`, { token: other.token })).status).toBe(404);
    expect(
      (await t.http.put('/update_wifi_credentials', { espId, ssid: 'x', password: 'y' }, { token: other.token }))
        .status,
    ).toBe(404);
    expect(
      (
        await t.http.post(
          '/insert_tariffs',
          { espId, coldTariffs: 1, freshTariffs: 1, coldCalb: 1, freshCalb: 1 },
          { token: other.token },
        )
      ).status,
    ).toBe(404);
    expect((await t.http.get(`/machine_settings/${espId}`, { token: attendant.token })).status).toBe(403);
    expect((await t.http.get(`/machine_settings/${espId}`)).status).toBe(401);
  });

  it('lets a machine read its own settings with its key, and only its own', async () => {
    const key = owner.devices[0]!.deviceKey;
    expect((await t.http.get(`/machine_settings/${espId}`, { headers: { 'x-device-key': key } })).status).toBe(200);
    expect(
      (await t.http.get(`/machine_settings/${other.devices[0]!.espId}`, { headers: { 'x-device-key': key } })).status,
    ).toBe(401);
  });
});

describe('LEGACY_OPEN_DEVICE_READS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LEGACY_OPEN_DEVICE_READS: 'true' });
  });
  afterAll(() => t.close());

  it('lets legacy firmware read its Wi-Fi and tariffs without a key, but never write', async () => {
    const admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const manager = await createManager(t.http, admin);
    const espId = manager.devices[0]!.espId;
    expect(await t.http.get(`/get_wifi_credentials/${espId}`)).toMatchObject({
      status: 200,
      body: { message: 'No Wi-Fi credentials set' },
    });
    expect((await t.http.get('/machine_settings/ESP-UNKNOWN')).status).toBe(404);
    expect((await t.http.put('/update_wifi_credentials', { espId, ssid: 'a', password: 'b' })).status).toBe(401);
  });
});
