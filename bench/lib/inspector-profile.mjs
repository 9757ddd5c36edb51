// V8 CPU profiles of a running node process, phase by phase, through its inspector (the Chrome DevTools protocol):
// unlike --cpu-prof, which writes at exit, this survives a SIGKILL and separates a benchmark's phases. Start the
// process with `--inspect=127.0.0.1:0`; `inspectorUrl(output)` finds the address it printed.
import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';

export const inspectorUrl = (output) => /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];

/** Connects to the inspector at `url`; `start()` begins sampling, `stop(file)` writes the .cpuprofile. */
export async function cpuProfiler(url, { intervalUs = 500 } = {}) {
  const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let id = 0;
  const waiting = new Map();
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    const settle = waiting.get(message.id);
    if (!settle) return;
    waiting.delete(message.id);
    settle(message);
  });
  // The process may be killed while a profile is on: its answers then never come.
  ws.on('close', () => {
    for (const settle of waiting.values()) settle({ error: { message: 'inspector closed' } });
    waiting.clear();
  });
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const n = ++id;
      waiting.set(n, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: intervalUs });
  return {
    start: () => call('Profiler.start'),
    async stop(file) {
      const { profile } = await call('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      return file;
    },
    close: () => ws.terminate(),
  };
}
