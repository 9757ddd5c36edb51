import { buildTelemetryTopic } from '@wv/contracts';
import type { MachineCredentials, Random } from '@wv/simulator';
import mqtt, { type MqttClient } from 'mqtt';

/** A reading that opens the alarm (docs/alarms.md, "The alarms": default thresholds), and one that clears it. */
const READINGS = {
  low_tank: { open: { tankLevelPct: 5 }, clear: { tankLevelPct: 60 } },
  water_quality: { open: { tdsPpm: 900 }, clear: { tdsPpm: 120 } },
} as const;
export type AlarmKind = keyof typeof READINGS;
const KINDS = Object.keys(READINGS) as AlarmKind[];

const READING_EVERY_MS = 250;
/** How long a machine stays in one state (alarm or normal): a few readings, so the state reaches the worker. */
const PHASE_MS: [number, number] = [700, 2_500];

interface AlarmMachine {
  credentials: MachineCredentials;
  client: MqttClient;
  /** The kinds whose condition holds now. */
  raised: Set<AlarmKind>;
  rng: Random;
  timer?: NodeJS.Timeout;
  phases: number;
}

/**
 * Opens and clears alarms during a run as a machine's sensors would: a few machines of their own
 * (not the selling fleet, whose MQTT identities they would take over) publish telemetry every 250 ms
 * and go in and out of a low tank and bad water (TDS) in seeded phases. Telemetry is a sample, not
 * money (docs/alarms.md, "Telemetry"): a reading lost to a fault is followed by the next one, so the
 * alarm's state follows the machine's whatever the faults. Every opening that commits must reach
 * its people exactly once per channel; the checks count that, not this.
 */
export class AlarmWorkload {
  private readonly machines: AlarmMachine[];
  private stopped = false;
  /** Phases that raised a condition (an upper bound of the openings: a fault may swallow one). */
  raisedPhases = 0;

  constructor(private readonly opts: { mqttPort: number; machines: MachineCredentials[]; rng: Random }) {
    this.machines = opts.machines.map((credentials, i) => ({
      credentials,
      rng: opts.rng.fork(i + 1),
      client: this.connect(credentials),
      raised: new Set<AlarmKind>(),
      phases: 0,
    }));
  }

  private connect({ espId, deviceKey }: MachineCredentials): MqttClient {
    const client = mqtt.connect(`mqtt://127.0.0.1:${this.opts.mqttPort}`, {
      clientId: espId,
      username: espId,
      password: deviceKey,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 300,
      connectTimeout: 3_000,
      keepalive: 5,
    });
    client.on('error', () => undefined);
    return client;
  }

  /** Runs the phases until `stop()`; readings go out every 250 ms while a machine is connected. */
  start(): void {
    for (const m of this.machines) {
      const publish = () => {
        if (this.stopped) return;
        this.publish(m);
        m.timer = setTimeout(publish, READING_EVERY_MS);
      };
      publish();
      this.nextPhase(m);
    }
  }

  private nextPhase(m: AlarmMachine): void {
    if (this.stopped) return;
    const { rng } = m;
    m.phases++;
    if (m.raised.size) m.raised.clear();
    else {
      // One kind or both at once.
      const pick = rng.int(0, KINDS.length);
      for (const [i, kind] of KINDS.entries()) if (pick === i || pick === KINDS.length) m.raised.add(kind);
      this.raisedPhases++;
    }
    setTimeout(() => this.nextPhase(m), rng.int(PHASE_MS[0], PHASE_MS[1])).unref();
  }

  private reading(m: AlarmMachine): Record<string, number> {
    return Object.assign({}, ...KINDS.map((k) => (m.raised.has(k) ? READINGS[k].open : READINGS[k].clear)));
  }

  private publish(m: AlarmMachine): void {
    if (!m.client.connected) return;
    m.client.publish(buildTelemetryTopic(m.credentials.espId), JSON.stringify(this.reading(m)), { qos: 1 });
  }

  /**
   * Every machine back to normal: clearing readings until each one was acknowledged by the broker
   * (the alarms then clear in the worker, and no new one opens), then the connections close.
   */
  async stop(timeoutMs = 60_000): Promise<void> {
    this.stopped = true;
    for (const m of this.machines) {
      clearTimeout(m.timer);
      m.raised.clear();
    }
    const deadline = Date.now() + timeoutMs;
    await Promise.all(
      this.machines.map(async (m) => {
        for (;;) {
          const acked = await new Promise<boolean>((resolve) => {
            if (!m.client.connected) return resolve(false);
            const timer = setTimeout(() => resolve(false), 2_000);
            m.client.publish(
              buildTelemetryTopic(m.credentials.espId),
              JSON.stringify(this.reading(m)),
              { qos: 1 },
              (error) => {
                clearTimeout(timer);
                resolve(!error);
              },
            );
          });
          if (acked || Date.now() > deadline) return;
          await new Promise((r) => setTimeout(r, 200));
        }
      }),
    );
    this.close();
  }

  close(): void {
    this.stopped = true;
    for (const m of this.machines) {
      clearTimeout(m.timer);
      m.client.end(true);
    }
  }
}
