// A Mosquitto of the benchmark's own for MQTT_MODE=external (docs/external-mqtt.md, "Mosquitto"): Debian's package
// with its dynamic-security plugin, on a free port, configured as the docs advise. Never the system broker on 1883.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const BINARY = '/usr/sbin/mosquitto';
const PLUGINS = ['/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so', '/usr/lib/mosquitto_dynamic_security.so'];

export const mosquittoPlugin = () => (existsSync(BINARY) ? PLUGINS.find((p) => existsSync(p)) : undefined);

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Starts Mosquitto; resolves with `{ url, pid, env, stop() }` once it accepts connections. */
export async function startMosquitto() {
  const plugin = mosquittoPlugin();
  if (!plugin) throw new Error(`${BINARY} or its dynamic-security plugin is missing (apt-get install mosquitto)`);
  const dir = mkdtempSync(join(tmpdir(), 'wv-bench-mosquitto-'));
  const port = await freePort();
  const admin = { username: 'wv-program', password: randomBytes(12).toString('hex') };
  const dynsec = join(dir, 'dynamic-security.json');
  execFileSync('mosquitto_ctrl', ['dynsec', 'init', dynsec, admin.username, admin.password], { stdio: 'ignore' });
  const config = join(dir, 'mosquitto.conf');
  writeFileSync(
    config,
    [
      'per_listener_settings false',
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `plugin ${plugin}`,
      `plugin_opt_config_file ${dynsec}`,
      `user ${userInfo().username}`,
      'persistence false',
      'max_queued_messages 0',
      'max_inflight_messages 100',
      'log_dest stderr',
      'log_type error',
      '',
    ].join('\n'),
  );
  const child = spawn(BINARY, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  const { connect } = await import('node:net');
  for (let i = 0; ; i++) {
    const open = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    if (i > 200 || child.exitCode !== null) throw new Error('mosquitto did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    env: {
      MQTT_MODE: 'external',
      MQTT_BROKER_URL: `mqtt://127.0.0.1:${port}`,
      MQTT_BROKER_USERNAME: admin.username,
      MQTT_BROKER_PASSWORD: admin.password,
      MQTT_AUTH_MODE: 'mosquitto-dynsec',
    },
    async stop() {
      process.off('exit', orphanGuard);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
