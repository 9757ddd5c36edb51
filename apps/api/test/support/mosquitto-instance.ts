import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { reaper } from '../soak/reaper.js';
import { freePort } from './free-port.js';
import { startTracked } from './tracked-process.js';

export const MOSQUITTO = '/usr/sbin/mosquitto';
const DYNSEC_PLUGIN = [
  '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so',
  '/usr/lib/mosquitto_dynamic_security.so',
];

/** The Mosquitto that Debian packages, with its dynamic-security plugin; null when this machine lacks either. */
export function mosquittoAvailable(): { plugin: string } | null {
  const plugin = DYNSEC_PLUGIN.find((p) => existsSync(p));
  return existsSync(MOSQUITTO) && plugin ? { plugin } : null;
}

/**
 * A Mosquitto of the test's own (docs/external-mqtt.md, "Mosquitto"): on a free port, with a fresh
 * dynamic-security file whose only client is the program's account, configured as the docs advise for
 * external mode (unlimited queues for persistent sessions). Never the system broker on 1883.
 */
export class MosquittoInstance {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  readonly admin = { username: 'wv-program', password: randomBytes(12).toString('hex') };
  private readonly forgetDir: () => void;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {
    this.forgetDir = reaper.directory(dir);
  }

  static async create(): Promise<MosquittoInstance> {
    const found = mosquittoAvailable();
    if (!found) throw new Error(`${MOSQUITTO} or its dynamic-security plugin is missing (apt-get install mosquitto)`);
    const instance = new MosquittoInstance(await freePort(), mkdtempSync(join(tmpdir(), 'wv-mosquitto-')));
    try {
      const dynsec = join(instance.dir, 'dynamic-security.json');
      execFileSync('mosquitto_ctrl', ['dynsec', 'init', dynsec, instance.admin.username, instance.admin.password], {
        stdio: 'ignore',
      });
      writeFileSync(
        join(instance.dir, 'mosquitto.conf'),
        [
          'per_listener_settings false',
          `listener ${instance.port} 127.0.0.1`,
          'allow_anonymous false',
          `plugin ${found.plugin}`,
          `plugin_opt_config_file ${dynsec}`,
          // Run as the test's user: as root Mosquitto would switch to user mosquitto and could not save its file.
          `user ${userInfo().username}`,
          'persistence true',
          `persistence_location ${instance.dir}/`,
          'max_queued_messages 0',
          'max_inflight_messages 100',
          'log_dest stdout',
          ...(process.env.WV_MOSQUITTO_LOG ? ['log_type all'] : ['log_type error', 'log_type warning']),
          '',
        ].join('\n'),
      );
      await instance.start();
      return instance;
    } catch (error) {
      await instance.destroy();
      throw error;
    }
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  /** The environment of a program that uses this broker with dynamic security. */
  get env(): Record<string, string> {
    return {
      MQTT_MODE: 'external',
      MQTT_BROKER_URL: this.url,
      MQTT_BROKER_USERNAME: this.admin.username,
      MQTT_BROKER_PASSWORD: this.admin.password,
      MQTT_AUTH_MODE: 'mosquitto-dynsec',
    };
  }

  async start(): Promise<void> {
    if (this.child) return;
    const started = await startTracked(
      'mosquitto',
      MOSQUITTO,
      ['-c', join(this.dir, 'mosquitto.conf')],
      () => this.answers(),
      !!process.env.WV_MOSQUITTO_LOG,
    );
    this.child = started.child;
    this.exited = started.exited;
  }

  /**
   * Writes the persistence file now (SIGUSR1) and waits until it is written. Mosquitto otherwise saves only at a
   * shutdown and every `autosave_interval` (30 minutes), and a SIGKILL brings it back as it was at the last save:
   * messages delivered and acknowledged since are delivered again.
   */
  async save(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const file = join(this.dir, 'mosquitto.db');
    const stamp = () => (existsSync(file) ? `${statSync(file).ino}/${statSync(file).mtimeMs}` : '');
    const before = stamp();
    child.kill('SIGUSR1');
    const deadline = Date.now() + 5_000;
    while (stamp() === before) {
      if (Date.now() > deadline) throw new Error('mosquitto did not write its persistence file');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** SIGTERM saves the sessions and retained messages (persistence); SIGKILL loses what was not saved. */
  async stop(signal: 'SIGKILL' | 'SIGTERM' = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    child.kill(signal);
    await this.exited;
  }

  private async answers(): Promise<boolean> {
    try {
      const client = await mqtt.connectAsync(this.url, {
        username: this.admin.username,
        password: this.admin.password,
        clientId: `probe-${randomBytes(4).toString('hex')}`,
        reconnectPeriod: 0,
        connectTimeout: 1000,
      });
      await client.endAsync(true);
      return true;
    } catch {
      return false;
    }
  }

  async destroy(): Promise<void> {
    await this.stop('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
    this.forgetDir();
  }
}
