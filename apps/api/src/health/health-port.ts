import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiRoutes } from '@wv/contracts';
import type { HealthService } from './health.service.js';

/**
 * The liveness and readiness endpoints of a process that serves no HTTP otherwise (APP_ROLES=worker), on
 * `HEALTH_PORT`, so that an orchestrator can probe workers as it probes the API (docs/operations.md, "Kubernetes").
 * Only the two GET paths answer; they carry no data beyond up or down, as on the API port.
 */
export function listenHealthPort(port: number, health: HealthService): Promise<Server> {
  const live = `/api${apiRoutes.liveness.path}`;
  const ready = `/api${apiRoutes.health.path}`;
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    const path = (req.url ?? '').split('?')[0];
    if (path !== live && path !== ready) return send(404, { statusCode: 404, message: 'Not Found' });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return send(405, { statusCode: 405, message: 'Method Not Allowed' });
    }
    if (path === live) return send(200, { status: 'ok' });
    health.check().then(
      (result) => send(result.status === 'ok' ? 200 : 503, result),
      () => send(503, { status: 'degraded' }),
    );
  });
  // Probes are one short request each: a slow or idle client is cut instead of holding a socket.
  server.requestTimeout = 5000;
  server.headersTimeout = 5000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

export function healthPortOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}
