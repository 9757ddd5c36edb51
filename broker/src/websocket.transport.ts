/**
 * MQTT over WebSocket on an existing HTTP server (docs/operations.md, "Configuration": `MQTT_WS_PATH`, default `/mqtt`,
 * on the HTTP port). Upgrades for other paths are left alone: Socket.IO listens on the same server.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';

export interface WebSocketTransport {
  /** Stops taking upgrades; the broker closes the open streams itself, after their sales drained. */
  close(): void;
}

function pathnameOf(request: IncomingMessage): string {
  try {
    return new URL(request.url ?? '/', 'http://localhost').pathname;
  } catch {
    return '';
  }
}

export async function attachWebSocketTransport(
  httpServer: HttpServer,
  path: string,
  maxPacketBytes: number,
  handle: (stream: Duplex, request: IncomingMessage) => void,
): Promise<WebSocketTransport> {
  // Loaded on demand: only deployments that serve MQTT over WebSocket need `ws`.
  let ws: typeof import('ws');
  try {
    ws = await import('ws');
  } catch {
    throw new Error('MQTT over WebSocket needs the "ws" package, which is not installed');
  }
  // maxPayload bounds what one frame may make us buffer, like the TCP packet-size guard.
  const wss = new ws.WebSocketServer({ noServer: true, maxPayload: maxPacketBytes, perMessageDeflate: false });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (pathnameOf(request) !== path) return;
    wss.handleUpgrade(request, socket, head, (websocket) => {
      handle(ws.createWebSocketStream(websocket), request);
    });
  };
  httpServer.on('upgrade', onUpgrade);
  return {
    close() {
      httpServer.off('upgrade', onUpgrade);
      // Open WebSockets stay up (ws 8 leaves them alone) until the broker has drained their sales.
      wss.close();
    },
  };
}
