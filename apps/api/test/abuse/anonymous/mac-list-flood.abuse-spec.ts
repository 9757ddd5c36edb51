import { afterEach, describe, expect, it } from '@jest/globals';
import { macToTopicId, PROVISION_USERNAME } from '@wv/contracts';
import { randomBytes } from 'node:crypto';
import { randomMac } from '../../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../support/test-app.js';
import { MacAnnouncementPurger } from '../../../src/device/mac-announcement.purger.js';
import { Connack, connectOutcome } from '../provisioning-device/provisioning-client.js';

/** Unassigned MAC addresses kept at most (docs/security.md); beyond it new ones are refused. */
const UNASSIGNED_MAC_CAP = 10_000;
/** With HTTP_RATE_LIMIT=50, one address may announce 50 / 5 = 10 MACs a minute. */
const HTTP_RATE_LIMIT = 50;
const ANNOUNCES_PER_MINUTE = HTTP_RATE_LIMIT / 5;

/**
 * Announcing needs no credentials (REST POST /devices/announce, or an MQTT provisioning connect),
 * so an anonymous caller must not be able to grow the admin's MAC list, or the table behind it,
 * without bound.
 */
describe('anonymous announcements cannot flood the admin’s MAC list', () => {
  let t: TestApp | undefined;
  const start = async () => {
    t = await createTestApp({ HTTP_RATE_LIMIT: String(HTTP_RATE_LIMIT) });
    return { app: t, admin: await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password) };
  };
  const unassignedRows = async (app: TestApp) =>
    Number(
      (await app.dataSource.query(`SELECT count(*) AS n FROM mac_announcements WHERE assigned_esp_id IS NULL`))[0].n,
    );
  afterEach(async () => {
    await t?.close();
    t = undefined;
  }, 60_000);

  it('answers 429 to REST announces from one address beyond its share of a minute, and the list stops growing', async () => {
    const { app, admin } = await start();
    // More than two windows' worth, so that a minute boundary in the middle cannot hide the limit.
    const statuses: number[] = [];
    for (let i = 0; i < 2 * ANNOUNCES_PER_MINUTE + 5; i++) {
      statuses.push((await app.http.post('/devices/announce', { macAddress: randomMac() })).status);
    }
    const accepted = statuses.filter((s) => s === 202).length;
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(accepted).toBeLessThanOrEqual(2 * ANNOUNCES_PER_MINUTE);
    expect(statuses.every((s) => s === 202 || s === 429)).toBe(true);
    const listed = await app.http.get<unknown[]>('/get_mac_addresses', { token: admin });
    expect(listed.body).toHaveLength(accepted);
  }, 60_000);

  it('refuses provisioning connects that would pin new MACs from one address beyond the same share', async () => {
    const { app } = await start();
    const outcomes: number[] = [];
    for (let i = 0; i < 2 * ANNOUNCES_PER_MINUTE + 5; i++) {
      outcomes.push(await connectOutcome(app.mqttPort, macToTopicId(randomMac()), PROVISION_USERNAME, 'secret-1234'));
    }
    expect(outcomes.filter((o) => o === Connack.ServerUnavailable).length).toBeGreaterThan(0);
    expect(outcomes.every((o) => o === 0 || o === Connack.ServerUnavailable)).toBe(true);
    expect(await unassignedRows(app)).toBe(outcomes.filter((o) => o === 0).length);
  }, 60_000);

  it('refuses new MACs once the unassigned list holds its cap, over REST with 503 and over MQTT, while a known MAC may announce again', async () => {
    const { app } = await start();
    // The cap filled by earlier floods (from many addresses), written straight into the table.
    await app.dataSource.query(
      `INSERT INTO mac_announcements (mac_address)
       SELECT upper(regexp_replace(lpad(to_hex(g), 12, '0'), '(..)(?!$)', '\\1:', 'g')) FROM generate_series(1, $1) g`,
      [UNASSIGNED_MAC_CAP],
    );
    const refused = await app.http.post('/devices/announce', { macAddress: randomMac() });
    expect(refused.status).toBe(503);
    expect(await connectOutcome(app.mqttPort, macToTopicId(randomMac()), PROVISION_USERNAME, 'secret-1234')).toBe(
      Connack.ServerUnavailable,
    );
    expect(await unassignedRows(app)).toBe(UNASSIGNED_MAC_CAP);
    expect((await app.http.post('/devices/announce', { macAddress: '00:00:00:00:00:2A' })).status).toBe(202);
  }, 60_000);

  it('deletes unassigned MACs not seen for 30 days and keeps assigned and recent ones', async () => {
    const { app, admin } = await start();
    const [stale, recent, assigned] = [randomMac(), randomMac(), randomMac()];
    for (const mac of [stale, recent, assigned]) {
      expect((await app.http.post('/devices/announce', { macAddress: mac })).status).toBe(202);
    }
    const espId = `ESP-${randomBytes(4).toString('hex')}`;
    expect((await app.http.post('/assign_id', { macAddress: assigned, espId }, { token: admin })).status).toBe(201);
    await app.dataSource.query(
      `UPDATE mac_announcements SET last_seen_at = now() - interval '31 days' WHERE mac_address = ANY($1)`,
      [[stale, assigned]],
    );

    await app.running.app.get(MacAnnouncementPurger).purge();

    const rows: { mac_address: string }[] = await app.dataSource.query(`SELECT mac_address FROM mac_announcements`);
    expect(rows.map((r) => r.mac_address).sort()).toEqual([recent, assigned].sort());
    const listed = await app.http.get<{ macAddress: string }[]>('/get_mac_addresses', { token: admin });
    expect(listed.body).toEqual([{ macAddress: recent }]);
  }, 60_000);
});
