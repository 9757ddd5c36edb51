import { buildAssignmentTopic, buildSalesTopic, parseTopic } from '@wv/contracts';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Fleet } from './fleet.js';
import type { FleetOptions } from './fleet.types.js';
import { TestServer } from './testing/test-server.js';

let server: TestServer;
let fleet: Fleet | undefined;

function startFleet(options: Partial<FleetOptions>): Fleet {
  fleet = new Fleet({ url: server.url, seed: 3, reconnectDelayMs: 20, resendAfterMs: 0, dayCurve: false, ...options });
  return fleet;
}

/** Unique eventIds the server saw per machine. */
function uniqueSales(espIds: readonly string[]): number {
  return espIds.reduce((n, id) => n + new Set(server.sales(buildSalesTopic(id)).map((s) => s.eventId)).size, 0);
}

beforeEach(async () => {
  server = await TestServer.start({ autoAck: true });
  fleet = undefined;
});

afterEach(async () => {
  await fleet?.stop();
  await server.close();
});

describe('a fleet', () => {
  it('spreads its rate over the machines and drains once every sale is acknowledged', async () => {
    const f = startFleet({ machines: 4, rate: 400, duplicateProbability: 0.1 });
    expect(f.machines.map((m) => m.rate)).toEqual([100, 100, 100, 100]);
    const started = Date.now();
    await f.start(5_000);
    await new Promise((r) => setTimeout(r, 1_000));
    const stats = await f.drain(5_000);
    const seconds = (Date.now() - started) / 1000;

    // Poisson arrivals at 400/s for about a second. A busy machine stretches that second, so the upper
    // bound follows the time that really passed (generous: 1.5 times the rate, plus slack).
    expect(stats.generated).toBeGreaterThan(150);
    expect(stats.generated).toBeLessThan(400 * seconds * 1.5 + 50);
    expect(stats).toMatchObject({ machines: 4, online: 4, outbox: 0, acked: stats.generated });
    expect(stats.duplicatesSent).toBeGreaterThan(0);
    expect(stats.published).toBe(stats.generated + stats.duplicatesSent + stats.republished);
    expect(uniqueSales(f.machines.map((m) => m.espId!))).toBe(stats.generated);
    // drain stopped the generators: nothing new appears.
    await new Promise((r) => setTimeout(r, 100));
    expect(f.stats().generated).toBe(stats.generated);
  });

  it('keeps every sale across random outages: the backlog is flushed and acknowledged', async () => {
    const f = startFleet({
      machines: 3,
      rate: 150,
      offlineProbability: 0.5,
      offlineCheckMs: 100,
      offlineDurationMs: [50, 150],
    });
    await f.start(5_000);
    await new Promise((r) => setTimeout(r, 1_200));
    const stats = await f.drain(5_000);
    expect(stats.reconnects).toBeGreaterThan(0);
    expect(stats.acked).toBe(stats.generated);
    expect(uniqueSales(f.machines.map((m) => m.espId!))).toBe(stats.generated);
  });

  it('provisions machines with seeded MACs and sells as soon as they have their ids', async () => {
    const assigned: string[] = [];
    server.broker.on('publish', (packet, client) => {
      const t = parseTopic(packet.topic);
      if (!client || t.kind !== 'hello') return;
      const espId = `ESP-P${assigned.push(t.mac)}`;
      void server.publish(buildAssignmentTopic(t.mac), { espId, deviceKey: `key-${espId}` }, true);
    });
    const f = startFleet({ machines: 2, provision: true });
    const waiting: string[] = [];
    f.on('waiting', (m) => waiting.push(m.macAddress));
    await f.start(5_000);
    await f.waitOnline(5_000);
    expect(waiting.sort()).toEqual(f.machines.map((m) => m.macAddress).sort());
    expect(f.machines.map((m) => m.espId).sort()).toEqual(['ESP-P1', 'ESP-P2']);
    expect(f.get('ESP-P1')).toBeDefined();

    f.sell(10);
    const stats = await f.drain(2_000);
    expect(stats).toMatchObject({ generated: 10, acked: 10, awaitingId: 0 });
    // Same seed, same MACs: a rerun meets the pinned first-boot passwords again.
    const again = new Fleet({ url: server.url, seed: 3, machines: 2, provision: true });
    expect(again.machines.map((m) => m.macAddress)).toEqual(f.machines.map((m) => m.macAddress));
  });

  it('starts a fault on a machine named by position or ESP ID, tells of it, and a drain ends it', async () => {
    const f = startFleet({ machines: 3, rate: 0 });
    const events: string[] = [];
    f.on('fault', (m, kind, on) => events.push(`${m.espId} ${kind} ${on ? 'on' : 'off'}`));
    await f.start(5_000);
    expect(f.resolve(2)).toBe(f.machines[1]);
    expect(f.resolve('SIM-0003')).toBe(f.machines[2]);
    expect(f.resolve(4)).toBeUndefined();
    f.startFault(2, 'flow-meter', 60_000);
    f.startFault('SIM-0003', 'dark', 60_000);
    expect(() => f.startFault(9, 'dark', 1)).toThrow('no machine 9 in this fleet of 3');
    expect(f.stats().faulty).toBe(2);
    expect(f.machines[2]!.online).toBe(false);

    const sold = f.sell(3);
    expect(sold[1]!.dispensed).toBeLessThan(sold[1]!.volume);
    const stats = await f.drain(5_000);
    expect(stats).toMatchObject({ faulty: 0, online: 3, acked: 3 });
    expect(events.sort()).toEqual([
      'SIM-0002 flow-meter off',
      'SIM-0002 flow-meter on',
      'SIM-0003 dark off',
      'SIM-0003 dark on',
    ]);
  });

  it('names the machines that cannot reach the broker', async () => {
    const f = startFleet({ machines: 2, url: 'mqtt://127.0.0.1:1', connectTimeoutMs: 200, reconnectDelayMs: 50 });
    await expect(f.start(300)).rejects.toThrow(/2 of 2 machines did not reach the broker within 300 ms: SIM-0001/);
  });
});
