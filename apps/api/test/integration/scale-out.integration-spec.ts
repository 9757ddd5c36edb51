import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  buildCardsAckTopic,
  buildCardsDeltaTopic,
  buildCardsTopic,
  buildConfigAckTopic,
  buildConfigTopic,
  buildSalesAckTopic,
  buildSalesTopic,
  buildStatusTopic,
} from '@wv/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { fundAttendant, registerCard } from '../factories/money.factory.js';
import { saleMessage } from '../factories/sales.factory.js';
import { reaper } from '../soak/reaper.js';
import { HaproxyInstance, haproxyAvailable } from '../support/haproxy-instance.js';
import { HttpClient } from '../support/http-client.js';
import { waitFor } from '../support/mqtt-machine.js';
import { rollupMismatches, waitUntilQuiet } from '../support/sales-invariants.js';
import { createDeployment, spawnServer, type Deployment, type ServerProcess } from '../support/server-process.js';
import { TEST_ADMIN } from '../support/test-app.js';

const available = haproxyAvailable();
if (!available) {
  // Debian's haproxy package is part of this machine kind (docs/scale-out.md, "Running it").
  console.warn('scale-out: /usr/sbin/haproxy is missing (apt-get install haproxy); this test is skipped');
}
const describeWithHaproxy = available ? describe : describe.skip;

const MACHINES = 20;
/** Each machine sells one coin sale about this often while the load runs. */
const SELL_EVERY_MS = 300;
const LOAD_BEFORE_KILLS_MS = 10_000;
const BETWEEN_KILLS_MS = 2_000;
const LOAD_AFTER_KILLS_MS = 18_000;
/** Sales without a `sales/ack` this long are sent again on the same connection (firmware: a minute). */
const RESEND_AFTER_MS = 20_000;
/** Cards registered at the manager's machines: every machine's card list holds them. */
const CARDS = 2;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const localDay = (at = new Date()) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Dar_es_Salaam' }).format(at);

type Sale = ReturnType<typeof saleMessage>;

/** What one connection of a machine received: every message with its retain flag, and the acks. */
interface Connection {
  index: number;
  openedAt: number;
  messages: { topic: string; retain: boolean; payload: any; at: number }[];
  /** Sales published again on this connection (its backlog at connect, and resends after RESEND_AFTER_MS). */
  resent: Set<string>;
  /** Event ids named by a `sales/ack` on this connection. */
  acks: Set<string>;
}

/**
 * A machine as docs/device-protocol.md, "Boot, offline and reconnect: the order of operations", describes its
 * firmware: clean session false with the ESP ID as client id, SUBSCRIBE to config, sales/ack, cards and cards/delta,
 * status and cards/ack, then the sales in flash oldest first; each sale goes to flash before it is published and
 * leaves it on `sales/ack`, not on PUBACK. A lost connection is retried through the balancer with a short random
 * delay, and a sale made meanwhile is kept with `offline: true`.
 */
class FirmwareMachine {
  /** Every sale made, in order. */
  readonly made = new Map<string, Sale>();
  /** Sales not yet named by a `sales/ack`, with when they were last sent (0: never). */
  readonly flash = new Map<string, { sale: Sale; sentAt: number }>();
  /** Acknowledged by PUBACK: durable on the server from then on. */
  readonly pubacked = new Set<string>();
  /** When each sale was first published and when its `sales/ack` came (for the report). */
  readonly firstSentAt = new Map<string, number>();
  readonly ackedAt = new Map<string, number>();
  readonly connections: Connection[] = [];
  readonly held = { cardsVersion: 0, cards: [] as string[], configVersion: 0 };
  private client?: MqttClient;
  private current?: Connection;
  private ended = false;
  private selling = false;
  private loops: Promise<void>[] = [];

  constructor(
    readonly espId: string,
    private readonly key: string,
    private readonly port: number,
  ) {}

  get connected(): boolean {
    return this.client?.connected === true;
  }

  /** The first connection; then the machine keeps itself connected until `end`. */
  async start(): Promise<void> {
    await this.connectOnce();
    this.loops.push(this.keepConnected(), this.resendLoop());
  }

  startSelling(): void {
    this.selling = true;
    this.loops.push(this.sellLoop());
  }

  stopSelling(): void {
    this.selling = false;
  }

  async end(): Promise<void> {
    this.ended = true;
    this.selling = false;
    // Closing first lets a publish waiting for its PUBACK give up; a connection made meanwhile is closed after.
    await this.client?.endAsync(true).catch(() => undefined);
    await Promise.all(this.loops);
    await this.client?.endAsync(true).catch(() => undefined);
  }

  private async connectOnce(): Promise<void> {
    const client = await mqtt.connectAsync(
      `mqtt://127.0.0.1:${this.port}`,
      {
        clientId: this.espId,
        username: this.espId,
        password: this.key,
        protocolVersion: 4,
        clean: false,
        keepalive: 30,
        reconnectPeriod: 0,
        connectTimeout: 5_000,
        will: { topic: buildStatusTopic(this.espId), payload: Buffer.from('{"online":false}'), qos: 1, retain: true },
      },
      // Rejects when the connection closes before CONNACK (a dead server behind the balancer).
      false,
    );
    const connection: Connection = {
      index: this.connections.length,
      openedAt: Date.now(),
      messages: [],
      resent: new Set(),
      acks: new Set(),
    };
    this.connections.push(connection);
    this.client = client;
    this.current = connection;
    client.on('message', (topic, raw, packet) => this.onMessage(client, connection, topic, raw, packet.retain));
    // Whatever happens to this connection now, the reconnect loop notices it by `connected`.
    client.on('error', () => undefined);
    await client.subscribeAsync(
      [
        buildConfigTopic(this.espId),
        buildSalesAckTopic(this.espId),
        buildCardsTopic(this.espId),
        buildCardsDeltaTopic(this.espId),
      ],
      { qos: 1 },
    );
    const status = { online: true, firmware: 'scale-out-test', queued: this.flash.size };
    void this.publish(client, buildStatusTopic(this.espId), status, true).catch(() => undefined);
    void this.publish(client, buildCardsAckTopic(this.espId), { version: this.held.cardsVersion }).catch(
      () => undefined,
    );
    // The backlog, oldest first, in arrays of 50: whatever has no sales/ack yet.
    const backlog = [...this.flash.values()].map((f) => f.sale);
    for (let i = 0; i < backlog.length && client.connected; i += 50) {
      const chunk = backlog.slice(i, i + 50);
      for (const sale of chunk) connection.resent.add(sale.eventId);
      await this.sendSales(client, chunk).catch(() => undefined);
    }
  }

  private onMessage(client: MqttClient, connection: Connection, topic: string, raw: Buffer, retain: boolean): void {
    const payload = JSON.parse(raw.toString());
    connection.messages.push({ topic, retain, payload, at: Date.now() });
    if (topic === buildSalesAckTopic(this.espId)) {
      for (const id of payload.eventIds as string[]) {
        connection.acks.add(id);
        if (!this.ackedAt.has(id)) this.ackedAt.set(id, Date.now());
        this.flash.delete(id);
      }
    } else if (topic === buildCardsTopic(this.espId) || topic === buildCardsDeltaTopic(this.espId)) {
      if (topic === buildCardsTopic(this.espId) && payload.version > this.held.cardsVersion) {
        this.held.cardsVersion = payload.version;
        this.held.cards = (payload.cards as { cardId: string }[]).map((c) => c.cardId);
      } else if (topic === buildCardsDeltaTopic(this.espId) && payload.baseVersion === this.held.cardsVersion) {
        const removed = new Set(payload.removals as string[]);
        const upserts = (payload.upserts as { cardId: string }[]).map((c) => c.cardId);
        this.held.cards = [...new Set([...this.held.cards.filter((c) => !removed.has(c)), ...upserts])];
        this.held.cardsVersion = payload.version;
      } else {
        // An older full list (the retained one may be), or a delta not on the version held: ignored, unacknowledged.
        return;
      }
      void this.publish(client, buildCardsAckTopic(this.espId), { version: this.held.cardsVersion }).catch(
        () => undefined,
      );
    } else if (topic === buildConfigTopic(this.espId)) {
      if (payload.version > this.held.configVersion) this.held.configVersion = payload.version;
      void this.publish(client, buildConfigAckTopic(this.espId), { version: this.held.configVersion }).catch(
        () => undefined,
      );
    }
  }

  /** QoS 1; resolves on PUBACK, rejects when the connection closes first. */
  private publish(client: MqttClient, topic: string, payload: unknown, retain = false): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!client.connected) return reject(new Error('not connected'));
      const onClose = () => reject(new Error('connection closed before PUBACK'));
      client.once('close', onClose);
      client.publish(topic, JSON.stringify(payload), { qos: 1, retain }, (error) => {
        client.off('close', onClose);
        if (error) reject(error);
        else resolve();
      });
    });
  }

  private async sendSales(client: MqttClient, sales: Sale[]): Promise<void> {
    const now = Date.now();
    for (const sale of sales) {
      const kept = this.flash.get(sale.eventId);
      if (kept) kept.sentAt = now;
      if (!this.firstSentAt.has(sale.eventId)) this.firstSentAt.set(sale.eventId, now);
    }
    await this.publish(client, buildSalesTopic(this.espId), sales.length === 1 ? sales[0] : sales);
    for (const sale of sales) this.pubacked.add(sale.eventId);
  }

  private async sellLoop(): Promise<void> {
    while (this.selling && !this.ended) {
      const online = this.connected;
      const sale = saleMessage({
        price: 100 + Math.floor(Math.random() * 50),
        volume: 5,
        ...(online ? {} : { offline: true }),
      });
      // To flash before anything else happens.
      this.made.set(sale.eventId, sale);
      this.flash.set(sale.eventId, { sale, sentAt: 0 });
      if (online && this.client) await this.sendSales(this.client, [sale]).catch(() => undefined);
      await pause(SELL_EVERY_MS * (0.5 + Math.random()));
    }
  }

  private async keepConnected(): Promise<void> {
    let delay = 250;
    while (!this.ended) {
      if (this.connected) {
        await pause(100);
        continue;
      }
      // A random delay, so that a fleet does not come back in lock step.
      await pause(delay * (0.75 + Math.random() / 2));
      if (this.ended) return;
      try {
        await this.client?.endAsync(true).catch(() => undefined);
        await this.connectOnce();
        delay = 250;
      } catch {
        delay = Math.min(delay * 2, 2_000);
      }
    }
  }

  /** Sales still without a `sales/ack` RESEND_AFTER_MS after they were sent go again, on the same connection. */
  private async resendLoop(): Promise<void> {
    while (!this.ended) {
      await pause(1_000);
      const client = this.client;
      const connection = this.current;
      if (!client?.connected || !connection) continue;
      const due = [...this.flash.values()]
        .filter((f) => f.sentAt > 0 && Date.now() - f.sentAt > RESEND_AFTER_MS)
        .map((f) => f.sale);
      for (let i = 0; i < due.length && client.connected; i += 50) {
        const chunk = due.slice(i, i + 50);
        for (const sale of chunk) connection.resent.add(sale.eventId);
        await this.sendSales(client, chunk).catch(() => undefined);
      }
    }
  }
}

/** Polls pg_stat_activity until a session of `applicationName` is in a transaction; false at the deadline. */
async function seenInTransaction(db: pg.Client, applicationName: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE application_name = $1 AND xact_start IS NOT NULL AND state <> 'idle'`,
      [applicationName],
    );
    if (rows[0]!.n > 0) return true;
    await pause(2);
  }
  return false;
}

interface Update {
  at: number;
  machineId: string;
  date: string;
  coin: number;
  coinVolume: number;
}

/**
 * A manager's browser: Socket.IO through the balancer with the web app's transport (WebSocket only,
 * apps/web/src/lib/socket.ts), reconnecting as socket.io-client does, and on every reconnect fetching the day's
 * summary over REST as the web app refetches what it shows (docs/live-events.md, "Events"). `updates` is what it
 * would show, in arrival order: the REST answers and the `summary` events.
 */
class Browser {
  readonly connects: number[] = [];
  readonly disconnects: { at: number; reason: string }[] = [];
  readonly updates: Update[] = [];
  readonly summaryEvents: Update[] = [];
  readonly socket: Socket;

  constructor(
    private readonly http: HttpClient,
    baseUrl: string,
    private readonly token: string,
  ) {
    this.socket = io(baseUrl, {
      path: '/socket.io',
      auth: { token },
      transports: ['websocket'],
      forceNew: true,
      reconnection: true,
      reconnectionDelay: 500,
      reconnectionDelayMax: 2_000,
    });
    this.socket.on('connect', () => {
      this.connects.push(Date.now());
      // The first connect's fetch is left out: it would take a turn of the roundrobin between the two browsers.
      if (this.connects.length > 1) void this.catchUp().catch(() => undefined);
    });
    this.socket.on('disconnect', (reason) => this.disconnects.push({ at: Date.now(), reason }));
    this.socket.on('summary', (s: any) => {
      const update = {
        at: Date.now(),
        machineId: s.machineId,
        date: s.date,
        coin: s.coinBased.dailyPriceCollected,
        coinVolume: s.coinBased.volumeSold,
      };
      this.summaryEvents.push(update);
      this.updates.push(update);
    });
  }

  async connected(): Promise<void> {
    await waitFor(
      async () => this.socket.connected,
      (c) => c,
      15_000,
    );
  }

  private async catchUp(): Promise<void> {
    const date = localDay();
    const res = await this.http.get<{ dailyData: any[] }>(`/user/machines/daily-summary?date=${date}`, {
      token: this.token,
    });
    if (res.status !== 200) return;
    for (const row of res.body.dailyData) {
      this.updates.push({
        at: Date.now(),
        machineId: row.machineId,
        date,
        coin: row.coinBased.dailyPriceCollected,
        coinVolume: row.coinBased.volumeSold,
      });
    }
  }

  /** What the screen shows for a machine and day: the last update that arrived. */
  shown(machineId: string, date: string): Update | undefined {
    return this.updates.filter((u) => u.machineId === machineId && u.date === date).at(-1);
  }

  close(): void {
    this.socket.close();
  }
}

/**
 * docs/scale-out.md: two processes per role behind HAProxy, one deployment (one database, one Redis prefix). Under a
 * steady load through the balancer's two ports only, one broker, one API and one worker process are SIGKILLed; every
 * acknowledged sale ends up in PostgreSQL once, every machine is back on the surviving broker with its state, and the
 * browsers' live figures end equal to the database.
 */
describeWithHaproxy('several processes per role behind HAProxy', () => {
  let deployment: Deployment;
  let db: pg.Client;
  let haproxy: HaproxyInstance;
  const processes: ServerProcess[] = [];
  const forget: (() => void)[] = [];
  const machines: FirmwareMachine[] = [];
  const browsers: Browser[] = [];
  const brokers: ServerProcess[] = [];
  const apis: ServerProcess[] = [];
  const workers: ServerProcess[] = [];

  // Each process names its PostgreSQL sessions, so that the test can see when a worker is inside a transaction.
  const spawn = async (role: string, name: string) => {
    const url = new URL(deployment.databaseUrl);
    url.searchParams.set('application_name', `wv-scale-${name}`);
    const p = await spawnServer(deployment, { APP_ROLES: role, DATABASE_URL: url.toString() }, 120_000);
    processes.push(p);
    forget.push(reaper.process(p.process.pid));
    return p;
  };

  beforeAll(async () => {
    deployment = await createDeployment({ LOG_LEVEL: 'warn' });
    db = new pg.Client({ connectionString: deployment.databaseUrl });
    await db.connect();
    // One at a time per role pair: six Nest processes starting at once on two busy cores is slow, not wrong.
    for (const [role, list] of [
      ['broker', brokers],
      ['api', apis],
      ['worker', workers],
    ] as const) {
      list.push(...(await Promise.all([spawn(role, `${role}1`), spawn(role, `${role}2`)])));
    }
    haproxy = await HaproxyInstance.create({
      mqtt: brokers.map((b, i) => ({ name: `broker${i + 1}`, port: b.mqttPort })),
      http: apis.map((a, i) => ({ name: `api${i + 1}`, port: Number(new URL(a.baseUrl).port) })),
    });
  }, 180_000);

  afterAll(async () => {
    browsers.forEach((b) => b.close());
    await Promise.all(machines.map((m) => m.end()));
    await haproxy?.destroy();
    await Promise.all(processes.map((p) => p.kill()));
    forget.forEach((f) => f());
    await db?.end();
    await deployment?.cleanup();
  }, 60_000);

  it('loses and doubles nothing when a broker, an API and a worker process are killed under load', async () => {
    const started = Date.now();
    const http = new HttpClient(haproxy.httpUrl);
    const admin = await http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const manager = await createManager(http, admin, MACHINES);
    const espIds = manager.devices.map((d) => d.espId);

    // State each machine must find again on whichever broker it lands: a configuration and a card list.
    for (const espId of espIds) {
      const put = await http.put(
        '/update_wifi_credentials',
        { espId, ssid: 'Kiosk', password: 'secret-123' },
        { token: manager.token },
      );
      expect(put.status).toBe(200);
    }
    const attendant = await createAttendant(http, manager.token, espIds[0]!);
    await fundAttendant(http, manager.token, attendant, 1_000);
    const cardIds: string[] = [];
    for (let i = 0; i < CARDS; i++) {
      cardIds.push((await registerCard(http, attendant.token, { card_balance: 100 })).card_id);
    }

    // Two browsers of the manager, on different API processes: roundrobin gives consecutive connections to
    // different servers; HAProxy's session count per server says which one each WebSocket is on.
    const apiSessions = async () =>
      new Map((await haproxy.stats()).filter((s) => s.backend === 'api').map((s) => [s.server, s.current] as const));
    const first = new Browser(http, haproxy.httpUrl, manager.token);
    browsers.push(first);
    await first.connected();
    const firstServer = await waitFor(
      async () => [...(await apiSessions())].find(([, n]) => n === 1)?.[0],
      (s) => s !== undefined,
    );
    let second: Browser | undefined;
    for (let attempt = 0; attempt < 4 && !second; attempt++) {
      const candidate = new Browser(http, haproxy.httpUrl, manager.token);
      await candidate.connected();
      const sessions = await waitFor(apiSessions, (m) => [...m.values()].reduce((a, b) => a + b, 0) === 2);
      if ([...sessions.values()].every((n) => n === 1)) second = candidate;
      else candidate.close();
    }
    expect(second).toBeDefined();
    browsers.push(second!);
    const killedApi = apis[Number(firstServer!.replace('api', '')) - 1]!;

    // The machines connect through the MQTT port: leastconn spreads them over both brokers.
    for (const d of manager.devices) {
      const machine = new FirmwareMachine(d.espId, d.deviceKey, haproxy.mqttPort);
      machines.push(machine);
      await machine.start();
    }
    for (const m of machines) {
      await waitFor(
        async () => m.held,
        (h) => h.configVersion >= 1 && cardIds.every((c) => h.cards.includes(c)),
        30_000,
      );
    }
    const configVersions = new Map(
      (
        await db.query<{ espId: string; version: number }>(
          `SELECT esp_id AS "espId", config_version AS version FROM devices WHERE esp_id = ANY($1)`,
          [espIds],
        )
      ).rows.map((r) => [r.espId, r.version]),
    );
    const brokerSessions = async () =>
      new Map((await haproxy.stats()).filter((s) => s.backend === 'brokers').map((s) => [s.server, s] as const));
    const spread = await brokerSessions();
    expect(spread.get('broker1')!.current).toBeGreaterThan(0);
    expect(spread.get('broker2')!.current).toBeGreaterThan(0);
    expect(spread.get('broker1')!.current + spread.get('broker2')!.current).toBe(MACHINES);

    // The load, and the kills in the middle of it.
    machines.forEach((m) => m.startSelling());
    await pause(LOAD_BEFORE_KILLS_MS);
    const onKilledBroker = (await brokerSessions()).get('broker1')!.current;
    const brokerKilledAt = Date.now();
    await brokers[0]!.kill();
    await pause(BETWEEN_KILLS_MS);
    const apiKilledAt = Date.now();
    await killedApi.kill();
    await pause(BETWEEN_KILLS_MS);
    // The worker goes when it is inside a transaction, if it is seen in one within a few seconds.
    const killedInTransaction = await seenInTransaction(db, 'wv-scale-worker1', 5_000);
    const workerKilledAt = Date.now();
    await workers[0]!.kill();
    await pause(LOAD_AFTER_KILLS_MS);
    machines.forEach((m) => m.stopSelling());

    // Every sale made leaves flash: each got its sales/ack, i.e. is committed (docs/device-protocol.md).
    await waitFor(
      async () => machines.reduce((n, m) => n + m.flash.size, 0),
      (n) => n === 0,
      90_000,
    );
    await waitUntilQuiet(db, 2_000, 20_000);

    // 1. Exactly once: per machine, the rows are the sales made, each once; every PUBACKed sale among them.
    const { rows: stored } = await db.query<{ espId: string; n: number; distinct: number; ids: string[] }>(
      `SELECT esp_id AS "espId", count(*)::int AS n, count(DISTINCT event_id)::int AS distinct,
              array_agg(event_id) AS ids
       FROM sales WHERE esp_id = ANY($1) GROUP BY esp_id`,
      [espIds],
    );
    const byMachine = new Map(stored.map((r) => [r.espId, r]));
    let made = 0;
    let pubacked = 0;
    for (const m of machines) {
      const row = byMachine.get(m.espId);
      expect({ espId: m.espId, n: row?.n, distinct: row?.distinct }).toEqual({
        espId: m.espId,
        n: m.made.size,
        distinct: m.made.size,
      });
      const ids = new Set(row!.ids);
      expect([...m.made.keys()].filter((id) => !ids.has(id))).toEqual([]);
      expect([...m.pubacked].filter((id) => !ids.has(id))).toEqual([]);
      made += m.made.size;
      pubacked += m.pubacked.size;
    }
    // No sale counted twice in the rollups by the two workers (or by the killed one and its successor).
    expect(await rollupMismatches(db)).toEqual([]);

    // 2. Every machine is connected again, all on the surviving broker, and the moved ones found their state there.
    const after = await brokerSessions();
    expect(after.get('broker1')!.status).toMatch(/DOWN/);
    expect(after.get('broker1')!.current).toBe(0);
    expect(after.get('broker2')!.current).toBe(MACHINES);
    expect(machines.filter((m) => !m.connected).map((m) => m.espId)).toEqual([]);
    const moved = machines.filter((m) => m.connections.length > 1);
    expect(moved).toHaveLength(onKilledBroker);
    let resent = 0;
    for (const m of moved) {
      const last = m.connections.at(-1)!;
      expect(last.openedAt).toBeGreaterThan(brokerKilledAt);
      const retained = (topic: string) => last.messages.filter((x) => x.topic === topic && x.retain);
      // The retained configuration, at its current version, from the surviving broker's own retained store.
      expect(retained(buildConfigTopic(m.espId)).map((x) => x.payload.version)).toContain(configVersions.get(m.espId));
      // The retained full card list from the surviving broker's own store. It may be older than the list held
      // (deltas are not retained: docs/device-protocol.md, "Card lists"); the machine still holds the newest
      // version, with the owner's cards, and the server knows it (checked below for every machine).
      expect(retained(buildCardsTopic(m.espId)).length).toBeGreaterThan(0);
      // What it resent after moving was acknowledged there (stored before or now, found once).
      expect([...last.resent].filter((id) => !last.acks.has(id))).toEqual([]);
      resent += last.resent.size;
    }
    expect(resent).toBeGreaterThan(0);
    const { rows: lists } = await db.query<{ espId: string; version: number; acked: number }>(
      `SELECT esp_id AS "espId", version, acked_version AS acked FROM card_list_state WHERE esp_id = ANY($1)`,
      [espIds],
    );
    const listOf = new Map(lists.map((l) => [l.espId, l]));
    for (const m of machines) {
      const list = listOf.get(m.espId);
      expect({
        espId: m.espId,
        held: m.held.cardsVersion,
        acked: list?.acked,
        cards: [...m.held.cards].sort(),
      }).toEqual({
        espId: m.espId,
        held: list?.version,
        acked: list?.version,
        cards: [...cardIds].sort(),
      });
    }
    const { rows: offline } = await db.query<{ espId: string }>(
      `SELECT esp_id AS "espId" FROM devices WHERE esp_id = ANY($1) AND NOT online`,
      [espIds],
    );
    expect(offline).toEqual([]);

    // 3. Live figures. The browser that was on the killed API process lost its socket and reconnected through the
    // balancer; the other never noticed. Both are now on the surviving API process.
    expect(first.disconnects.map((d) => d.at >= apiKilledAt)).toEqual([true]);
    expect(first.connects.map((at) => at > apiKilledAt)).toEqual([false, true]);
    expect(second!.disconnects).toEqual([]);
    const apiAfter = await apiSessions();
    expect([...apiAfter.values()].sort()).toEqual([0, 2]);
    const reconnectedAt = first.connects.at(-1)!;
    // Precisely: after the load, each browser shows for every machine exactly the daily rollup in PostgreSQL
    // (its last update, a `summary` event, equals the committed total), and the reconnected browser received
    // summaries of every machine after its reconnect, so nothing after the kill reached only the dead process.
    const today = localDay();
    const { rows: totals } = await db.query<{ espId: string; price: number; volume: number }>(
      `SELECT esp_id AS "espId", price_total::float8 AS price, volume_total::float8 AS volume FROM sales_daily
       WHERE esp_id = ANY($1) AND day = $2 AND kind = 'coin'`,
      [espIds, today],
    );
    expect(totals).toHaveLength(MACHINES);
    for (const browser of [first, second!]) {
      await waitFor(
        async () =>
          totals.filter((t) => {
            const shown = browser.shown(t.espId, today);
            return shown?.coin !== t.price || shown.coinVolume !== t.volume;
          }),
        (wrong) => wrong.length === 0,
        15_000,
      );
      const lastSummaries = totals.map((t) =>
        browser.summaryEvents.filter((e) => e.machineId === t.espId && e.date === today).at(-1),
      );
      expect(lastSummaries.every((s) => s !== undefined && s.at > workerKilledAt)).toBe(true);
    }
    const afterReconnect = new Set(first.summaryEvents.filter((e) => e.at > reconnectedAt).map((e) => e.machineId));
    expect(espIds.filter((id) => !afterReconnect.has(id))).toEqual([]);

    // 4. A broker process that starts (the killed one coming back, a rolling restart) marks offline only the machines
    // of processes that are gone: the machines on the surviving broker stay online (docs/scale-out.md).
    await spawn('broker', 'broker3');
    await new Promise((r) => setTimeout(r, 2_000));
    const { rows: offlineAfterStart } = await db.query<{ espId: string }>(
      `SELECT esp_id AS "espId" FROM devices WHERE esp_id = ANY($1) AND NOT online`,
      [espIds],
    );
    expect(offlineAfterStart).toEqual([]);

    // For the report: what the kills cost. Sales the balancer sent to the killed broker and whose sales/ack was lost
    // were resent; sales of jobs the killed worker held waited for the other worker to take the jobs over (BullMQ
    // lock of 10 s); every copy found stored counts as a duplicate.
    const metrics = await http.get<string>('/metrics', { token: admin });
    const counter = (name: string) =>
      Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)`, 'm').exec(String(metrics.body))?.[1]);
    const waitedForTakeover = machines.reduce(
      (n, m) =>
        n +
        [...m.firstSentAt].filter(
          ([id, at]) => at < workerKilledAt && at > workerKilledAt - 3_000 && m.ackedAt.get(id)! - at > 5_000,
        ).length,
      0,
    );
    console.log(
      `scale-out: ${MACHINES} machines, ${made} sales made, ${pubacked} acknowledged by PUBACK, all stored once; ` +
        `${moved.length} moved from the killed broker and resent ${resent}; ` +
        `worker killed ${killedInTransaction ? 'inside' : 'outside'} a transaction, ` +
        `${waitedForTakeover} sales sent just before acknowledged only after the takeover; ` +
        `wv_sales_ingested_total ${counter('wv_sales_ingested_total')}, ` +
        `wv_sales_duplicates_total ${counter('wv_sales_duplicates_total')}; ` +
        `${Math.round((Date.now() - started) / 1000)} s`,
    );
  }, 240_000);
});
