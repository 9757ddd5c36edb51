import { buildSalesTopic, type Sale } from '@wv/contracts';
import type { MachineCredentials } from '@wv/simulator';
import mqtt, { type MqttClient } from 'mqtt';
import type pg from 'pg';
import { StoredSales } from './stored-sales.js';

/** Milliseconds from the end of a fault until each check first succeeded. */
export interface Recovery {
  healthMs: number;
  loginMs: number;
  pubackMs: number;
  /** All three: the system serves again. */
  servedMs: number;
  /** The probe's sale committed in PostgreSQL (the worker is back too); null if never within the deadline. */
  committedMs: number | null;
  /** Every sale PUBACKed before the fault's end committed (the backlog caught up); null if never. */
  backlogMs: number | null;
  /** Times the probe sent its sale again because it was not committed (only when told to: `resendAfterMs`). */
  resent: number;
}

export interface ProbeOptions {
  baseUrl: () => string;
  mqttPort: number;
  machine: MachineCredentials;
  login: { identifier: string; password: string };
  /** Straight to PostgreSQL, not through the proxy. */
  db: pg.Pool;
  /** Each PUBACKed probe sale: it must be stored like any other. */
  onPubacked: (sale: Sale) => void;
  tag: string;
}

const ATTEMPT_TIMEOUT_MS = 2_000;
const RETRY_MS = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), ms))),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Measures how soon the system serves again after a fault: a health check answering 200, a login,
 * and a sale published by a machine of its own getting its PUBACK; then when that sale is committed.
 * Each check retries every 100 ms with a fresh attempt (no client back-off), so the figure is the
 * system's, not a client's.
 */
export class RecoveryProbe {
  private client: MqttClient | null = null;
  private counter = 0;
  private readonly stored: StoredSales;

  constructor(private readonly options: ProbeOptions) {
    this.stored = new StoredSales(options.db);
  }

  /**
   * `backlogKeys`: the sales PUBACKed when the fault ended. `resendAfterMs`: the probe sends its sale again (the
   * same event id) while it is not committed, as firmware does with a sale that got no `sales/ack`; only for a
   * fault after which the broker may drop what it acknowledged (an external broker restarted: docs/external-mqtt.md,
   * "Sessions and client ids"). Without it a PUBACKed probe sale that never commits is a lost sale.
   */
  async measure(
    faultEnd: number,
    backlogKeys: ReadonlySet<string>,
    opts: { deadlineMs?: number; resendAfterMs?: number } = {},
  ): Promise<Recovery> {
    const deadlineMs = opts.deadlineMs ?? 120_000;
    const deadline = faultEnd + deadlineMs;
    const until = async (attempt: () => Promise<boolean>): Promise<number> => {
      for (;;) {
        if (await attempt().catch(() => false)) return Date.now() - faultEnd;
        if (Date.now() > deadline) return Number.POSITIVE_INFINITY;
        await sleep(RETRY_MS);
      }
    };
    const sale: Sale = {
      eventId: `${this.options.tag}-probe-${++this.counter}`,
      kind: 'coin',
      price: 100,
      volume: 2.5,
      waterType: 'pure',
      time: new Date().toISOString(),
    };
    const [healthMs, loginMs, pubackMs] = await Promise.all([
      until(() => this.health()),
      until(() => this.signIn()),
      until(() => this.publish(sale)),
    ]);
    let committedMs: number | null = null;
    let resent = 0;
    if (Number.isFinite(pubackMs)) {
      let sentAt = Date.now();
      const committed = await until(async () => {
        if (await this.committed(sale.eventId)) return true;
        if (opts.resendAfterMs !== undefined && Date.now() - sentAt >= opts.resendAfterMs) {
          sentAt = Date.now();
          resent++;
          await this.publish(sale);
        }
        return false;
      });
      committedMs = Number.isFinite(committed) ? committed : null;
    }
    const backlog = await until(() => this.stored.holdsAll(backlogKeys));
    const backlogMs = Number.isFinite(backlog) ? backlog : null;
    return {
      healthMs,
      loginMs,
      pubackMs,
      servedMs: Math.max(healthMs, loginMs, pubackMs),
      committedMs,
      backlogMs,
      resent,
    };
  }

  private async health(): Promise<boolean> {
    const res = await fetch(`${this.options.baseUrl()}/api/health`, {
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    return res.status === 200;
  }

  private async signIn(): Promise<boolean> {
    const res = await fetch(`${this.options.baseUrl()}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(this.options.login),
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    const body = (await res.json().catch(() => ({}))) as { token?: string };
    return res.status === 200 && typeof body.token === 'string';
  }

  private async publish(sale: Sale): Promise<boolean> {
    try {
      const client = await this.connected();
      await withTimeout(
        client.publishAsync(buildSalesTopic(this.options.machine.espId), JSON.stringify(sale), { qos: 1 }),
        ATTEMPT_TIMEOUT_MS,
      );
      this.options.onPubacked(sale);
      return true;
    } catch {
      this.drop();
      return false;
    }
  }

  private async committed(eventId: string): Promise<boolean> {
    const { rowCount } = await this.options.db.query('SELECT 1 FROM sales WHERE esp_id = $1 AND event_id = $2', [
      this.options.machine.espId,
      eventId,
    ]);
    return rowCount === 1;
  }

  private async connected(): Promise<MqttClient> {
    if (this.client?.connected) return this.client;
    this.drop();
    const { espId, deviceKey } = this.options.machine;
    const client = mqtt.connect(`mqtt://127.0.0.1:${this.options.mqttPort}`, {
      clientId: espId,
      username: espId,
      password: deviceKey,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: ATTEMPT_TIMEOUT_MS,
    });
    client.on('error', () => undefined);
    this.client = client;
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        client.once('connect', () => resolve());
        client.once('close', () => reject(new Error('closed')));
      }),
      ATTEMPT_TIMEOUT_MS,
    );
    return client;
  }

  private drop(): void {
    this.client?.end(true);
    this.client = null;
  }

  close(): void {
    this.drop();
  }
}
