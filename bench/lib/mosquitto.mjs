// A Mosquitto of the benchmark's own for MQTT_MODE=external (docs/external-mqtt.md, "Mosquitto"): Debian's package
// with its dynamic-security plugin, on a free port, configured as the docs advise, with no connection limit of its
// own (the open-file limit this process has, which the child inherits, is the limit). With `durable` it keeps
// persistence files: `kill()` is a SIGKILL, and `start()` again brings it back on the same port with the same
// persistence and dynamic-security files. Never the system broker on 1883.
import { execFileSync, spawn } from 'node:child_process';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
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

const answers = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });

/**
 * A dynamic-security client as the plugin saves one (Mosquitto 2.0: PBKDF2-HMAC-SHA512 of the password with a
 * 12-byte random salt, 101 iterations, 64 bytes), with one role of its own.
 */
function dynsecClient({ username, password, textname, rolename }) {
  const salt = randomBytes(12);
  return {
    username,
    clientid: username,
    textname,
    roles: [{ rolename }],
    password: pbkdf2Sync(password, salt, 101, 64, 'sha512').toString('base64'),
    salt: salt.toString('base64'),
    iterations: 101,
  };
}

/**
 * Resolves with `{ url, port, pid, env, dynsecFile, start(), kill(), stop() }` once Mosquitto accepts connections.
 * `durable`: persistence on (sessions and queued messages survive a restart). `seed`: `{ username, password,
 * textname, rolename, acls }[]`, clients (and their roles) written into the dynamic-security file before the first
 * start, as the plugin itself would have saved them.
 */
export async function startMosquitto({ durable = false, seed = [] } = {}) {
  const plugin = mosquittoPlugin();
  if (!plugin) throw new Error(`${BINARY} or its dynamic-security plugin is missing (apt-get install mosquitto)`);
  const dir = mkdtempSync(join(tmpdir(), 'wv-bench-mosquitto-'));
  const port = await freePort();
  const admin = { username: 'wv-program', password: randomBytes(12).toString('hex') };
  const dynsecFile = join(dir, 'dynamic-security.json');
  execFileSync('mosquitto_ctrl', ['dynsec', 'init', dynsecFile, admin.username, admin.password], { stdio: 'ignore' });
  if (seed.length) {
    const file = JSON.parse(readFileSync(dynsecFile, 'utf8'));
    file.clients.push(...seed.map(dynsecClient));
    file.roles.push(
      ...seed.map(({ rolename, acls }) => ({ rolename, acls: acls.map((acl) => ({ priority: 0, ...acl })) })),
    );
    writeFileSync(dynsecFile, JSON.stringify(file));
  }
  const config = join(dir, 'mosquitto.conf');
  writeFileSync(
    config,
    [
      'per_listener_settings false',
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `plugin ${plugin}`,
      `plugin_opt_config_file ${dynsecFile}`,
      // As root Mosquitto would switch to the user mosquitto and could not save its dynamic-security file.
      `user ${userInfo().username}`,
      ...(durable ? ['persistence true', `persistence_location ${dir}/`] : ['persistence false']),
      'max_queued_messages 0',
      'max_inflight_messages 100',
      // No limit of its own: the open-file limit (inherited from the benchmark) is the limit.
      'max_connections -1',
      'set_tcp_nodelay true',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      '',
    ].join('\n'),
  );
  let child;
  let stderr = '';
  const orphanGuard = () => child?.kill('SIGKILL');
  process.once('exit', orphanGuard);

  const broker = {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    dir,
    dynsecFile,
    pid: 0,
    env: {
      MQTT_MODE: 'external',
      MQTT_BROKER_URL: `mqtt://127.0.0.1:${port}`,
      MQTT_BROKER_USERNAME: admin.username,
      MQTT_BROKER_PASSWORD: admin.password,
      MQTT_AUTH_MODE: 'mosquitto-dynsec',
    },
    /** Starts Mosquitto on the port; resolves once it accepts connections (it reads its files first). */
    async start() {
      stderr = '';
      child = spawn(BINARY, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-20_000)));
      broker.pid = child.pid;
      for (let i = 0; ; i++) {
        if (await answers(port)) return;
        if (i > 1200 || child.exitCode !== null) throw new Error(`mosquitto did not start:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    /** SIGKILL: what is not in its files is lost. */
    async kill() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      process.off('exit', orphanGuard);
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
    /** The dynamic-security file's clients (as Mosquitto saved it). */
    dynsecClients() {
      return JSON.parse(readFileSync(dynsecFile, 'utf8')).clients ?? [];
    },
    output: () => stderr,
  };
  await broker.start();
  return broker;
}
