import { EventEmitter } from 'node:events';
import { connect, type MqttClient } from 'mqtt';

export interface MqttLinkOptions {
  url: string;
  clientId: string;
  username: string;
  password: string;
  /** false keeps the broker session (subscriptions and queued QoS 1 messages) across reconnects. */
  clean: boolean;
  will?: { topic: string; payload: string };
  reconnectDelayMs: number;
  connectTimeoutMs: number;
  keepaliveSeconds: number;
}

export interface MqttLinkEvents {
  connect: [sessionPresent: boolean];
  message: [topic: string, payload: Buffer];
  /** The connection was lost (not after `kill()` or `close()`, which the caller asked for). */
  down: [];
  /** The broker refused the CONNECT (bad credentials, not authorized). */
  refused: [error: Error];
}

const MAX_RECONNECT_DELAY_MS = 30_000;

/** The connection settings of a machine's options, with the defaults firmware would use. */
export function linkTimings(o: {
  url: string;
  reconnectDelayMs?: number;
  connectTimeoutMs?: number;
  keepaliveSeconds?: number;
}): Pick<MqttLinkOptions, 'url' | 'reconnectDelayMs' | 'connectTimeoutMs' | 'keepaliveSeconds'> {
  return {
    url: o.url,
    reconnectDelayMs: o.reconnectDelayMs ?? 1_000,
    connectTimeoutMs: o.connectTimeoutMs ?? 10_000,
    keepaliveSeconds: o.keepaliveSeconds ?? 30,
  };
}

/**
 * One device connection with firmware-like reconnects. mqtt.js's own reconnect is off: each attempt
 * is a fresh client, so nothing the library queued on a dead connection is replayed behind our back;
 * the outbox alone decides what is sent again, as the flash queue does on a real machine.
 */
export class MqttLink extends EventEmitter<MqttLinkEvents> {
  private client: MqttClient | null = null;
  /** Bumped per client, so late events of an abandoned client are ignored. */
  private generation = 0;
  private wanted = false;
  private failures = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private lastErrorText: string | null = null;

  constructor(private readonly options: MqttLinkOptions) {
    super();
  }

  get connected(): boolean {
    return this.client?.connected === true;
  }

  get lastError(): string | null {
    return this.lastErrorText;
  }

  /** Connects, and keeps reconnecting until `kill()` or `close()`. */
  open(): void {
    this.wanted = true;
    if (!this.client && !this.reconnectTimer) this.attempt();
  }

  /**
   * The socket dies without an MQTT DISCONNECT, as when power or Wi-Fi is cut: the broker publishes
   * the will. Stays down until `open()`.
   */
  kill(): void {
    this.wanted = false;
    this.clearTimer();
    const client = this.client;
    this.client = null;
    this.generation++;
    // end(true) destroys the stream without sending DISCONNECT (mqtt.js _cleanUp(forced)).
    client?.end(true);
  }

  /** A clean shutdown: optionally a last message (awaited), then DISCONNECT, so no will is published. */
  async close(last?: { topic: string; payload: string; retain: boolean }, timeoutMs = 2_000): Promise<void> {
    this.wanted = false;
    this.clearTimer();
    const client = this.client;
    this.client = null;
    this.generation++;
    if (!client) return;
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, timeoutMs, 'timeout').unref());
    if (client.connected) {
      const graceful = (async () => {
        if (last) await client.publishAsync(last.topic, last.payload, { qos: 1, retain: last.retain });
        await client.endAsync(false);
      })().catch(() => undefined);
      if ((await Promise.race([graceful, timeout])) !== 'timeout') return;
    }
    // A graceful end already under way makes end(true) a no-op, so cut the socket itself.
    client.stream?.destroy();
    client.end(true);
  }

  publish(topic: string, payload: string, retain = false): Promise<void> {
    const client = this.client;
    if (!client?.connected) return Promise.reject(new Error('not connected'));
    return new Promise((resolve, reject) => {
      client.publish(topic, payload, { qos: 1, retain }, (err) => (err ? reject(err) : resolve()));
    });
  }

  subscribe(topics: string[]): Promise<void> {
    const client = this.client;
    if (!client?.connected) return Promise.reject(new Error('not connected'));
    return new Promise((resolve, reject) => {
      client.subscribe(topics, { qos: 1 }, (err, granted) => {
        if (err) return reject(err);
        // 0x80 in a SUBACK is a refusal (MQTT 3.1.1 §3.9.3).
        const refused = granted?.filter((g) => g.qos === 128).map((g) => g.topic) ?? [];
        if (refused.length) return reject(new Error(`subscription refused: ${refused.join(', ')}`));
        resolve();
      });
    });
  }

  private attempt(): void {
    const gen = ++this.generation;
    const o = this.options;
    const client = connect(o.url, {
      protocolVersion: 4,
      clientId: o.clientId,
      username: o.username,
      password: o.password,
      clean: o.clean,
      keepalive: o.keepaliveSeconds,
      connectTimeout: o.connectTimeoutMs,
      reconnectPeriod: 0,
      resubscribe: false,
      will: o.will ? { topic: o.will.topic, payload: Buffer.from(o.will.payload), qos: 1, retain: true } : undefined,
    });
    this.client = client;
    let wasConnected = false;
    client.on('connect', (connack) => {
      if (gen !== this.generation) return;
      wasConnected = true;
      this.failures = 0;
      this.lastErrorText = null;
      this.emit('connect', connack.sessionPresent);
    });
    client.on('message', (topic, payload) => {
      if (gen === this.generation) this.emit('message', topic, payload);
    });
    client.on('error', (err) => {
      if (gen !== this.generation) return;
      this.lastErrorText = err.message;
      // CONNACK return codes 4 (bad user name or password) and 5 (not authorized), MQTT 3.1.1 §3.2.2.3.
      const code = (err as { code?: unknown }).code;
      if (code === 4 || code === 5) this.emit('refused', err);
    });
    client.on('close', () => {
      if (gen !== this.generation) return;
      this.generation++;
      this.client = null;
      client.end(true);
      if (wasConnected) this.emit('down');
      if (this.wanted) this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    this.failures++;
    const base = Math.min(MAX_RECONNECT_DELAY_MS, this.options.reconnectDelayMs * 2 ** (this.failures - 1));
    // Jitter so that a fleet does not reconnect in lock step after a broker restart.
    const delay = base * (0.75 + Math.random() * 0.5);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.wanted) this.attempt();
    }, delay);
  }

  private clearTimer(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }
}
