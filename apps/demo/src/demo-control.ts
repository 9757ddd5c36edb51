import { Logger } from '@nestjs/common';
import { assertPortFree, ConfigError } from '@wv/api';
import type { Fleet, Machine } from '@wv/simulator';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOn } from './outside/listen.js';

/** Next to the inbox (8025) when free; otherwise any free port. */
const CONTROL_PORT = 8026;
const HOST = '127.0.0.1';

export interface DemoControl {
  url: string;
  stop(): Promise<void>;
}

interface MachineView {
  espId: string;
  state: 'online' | 'cut off' | 'offline';
  lastSeq: number;
  /** Sales in flash without their sales/ack. */
  queued: number;
  soldOffline: number;
  cardsRefused: number;
  cardListVersion: number;
}

function view(m: Machine): MachineView {
  const s = m.stats();
  return {
    espId: m.espId ?? m.macAddress,
    state: s.online ? 'online' : s.cutOff ? 'cut off' : 'offline',
    lastSeq: s.lastSeq,
    queued: s.outbox,
    soldOffline: s.offlineSales,
    cardsRefused: s.cardsRefused,
    cardListVersion: s.cardListVersion,
  };
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(machines: MachineView[]): string {
  const rows = machines.map((m) => {
    const id = escape(m.espId);
    const action = m.state === 'cut off' ? 'reconnect' : 'cut-off';
    const label = m.state === 'cut off' ? 'Bring back' : 'Cut off';
    return `<tr><td>${id}</td><td>${m.state}</td><td>${m.lastSeq}</td><td>${m.queued}</td><td>${m.soldOffline}</td>
<td>${m.cardsRefused}</td><td>${m.cardListVersion}</td>
<td><form method="post" action="/machines/${encodeURIComponent(m.espId)}/${action}"><button>${label}</button></form></td></tr>`;
  });
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="3">
<title>Demo machines</title>
<style>body{font-family:sans-serif;margin:2em}td,th{padding:.3em .8em;text-align:left}tr:nth-child(even){background:#f3f3f3}</style>
</head><body><h1>Demo machines</h1>
<p>Cut a machine off the network: its connection dies without a goodbye (the broker publishes its will, so the
dashboard shows it offline), it keeps selling on its card list into flash (<code>offline: true</code>, numbered by
<code>seq</code>), and when brought back it sends that backlog oldest first. This page refreshes every 3 s.</p>
<table><tr><th>machine</th><th>network</th><th>last seq</th><th>in flash</th><th>sold offline</th>
<th>cards refused</th><th>card list</th><th></th></tr>
${rows.join('\n')}</table></body></html>`;
}

/**
 * A page for the person running the demo to cut simulated machines off the network and bring them back
 * (docs/device-protocol.md, "Boot, offline and reconnect: the order of operations"). On 127.0.0.1 only,
 * like the inbox:
 *
 * - `GET /` the machines, with a button each; `GET /machines.json` the same as JSON;
 * - `POST /machines/{espId}/cut-off` and `POST /machines/{espId}/reconnect`: 303 to `/`, or 200 with the
 *   machine as JSON when the request accepts JSON; 404 for a machine not in the fleet.
 */
export async function startDemoControl(fleet: Fleet, requestedPort?: string): Promise<DemoControl> {
  const server: Server = createServer((req, res) => handle(fleet, req, res));
  const wanted = await controlPort(requestedPort);
  const port = await listenOn(server, (listening) => server.listen(wanted, HOST, listening));
  return {
    url: `http://localhost:${port}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function handle(fleet: Fleet, req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://control').pathname;
  const send = (status: number, type: string, body: string) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };
  if (req.method === 'GET' && path === '/')
    return send(200, 'text/html; charset=utf-8', page(fleet.machines.map(view)));
  if (req.method === 'GET' && path === '/machines.json')
    return send(200, 'application/json', JSON.stringify(fleet.machines.map(view)));
  const action = /^\/machines\/([^/]+)\/(cut-off|reconnect)$/.exec(path);
  if (!action) return send(404, 'text/plain', 'Not found');
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    return send(405, 'text/plain', 'Use POST');
  }
  // A page of another site may not post here (a browser sends its Origin with a cross-site form).
  const origin = req.headers.origin;
  if (origin && origin !== 'null' && new URL(origin).host !== req.headers.host) {
    return send(403, 'text/plain', 'Only this page may cut machines off');
  }
  const machine = fleet.get(decodeURIComponent(action[1]!));
  if (!machine) return send(404, 'text/plain', `No demo machine ${decodeURIComponent(action[1]!)}`);
  if (action[2] === 'cut-off') machine.cutOff();
  else machine.reconnect();
  new Logger('Demo').log(`${machine.espId}: ${action[2] === 'cut-off' ? 'cut off the network' : 'brought back'}`);
  if ((req.headers.accept ?? '').includes('application/json'))
    return send(200, 'application/json', JSON.stringify(view(machine)));
  res.writeHead(303, { location: '/' });
  res.end();
}

/** DEMO_CONTROL_PORT when set (and free), else 8026 when free, else any free port. */
async function controlPort(requested: string | undefined): Promise<number> {
  if (requested !== undefined) {
    const port = Number(requested);
    if (!/^\d+$/.test(requested) || port > 65_535) {
      throw new ConfigError(`DEMO_CONTROL_PORT must be a port number (0-65535), got "${requested}"`);
    }
    await assertPortFree(port, 'DEMO_CONTROL_PORT');
    return port;
  }
  const free = await assertPortFree(CONTROL_PORT, 'DEMO_CONTROL_PORT').then(
    () => true,
    () => false,
  );
  if (!free) new Logger('Demo').warn(`Port ${CONTROL_PORT} is taken: the machine control takes a free port`);
  return free ? CONTROL_PORT : 0;
}
