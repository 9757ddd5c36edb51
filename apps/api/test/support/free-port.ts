import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '0.0.0.0', () => probe.close(() => resolve(true)));
  });
}

/** The lowest port the OS hands out to outgoing connections (Linux: ip_local_port_range). */
function ephemeralStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

/**
 * A free port below the ephemeral range. Servers the soak restarts (the program, Redis, PostgreSQL)
 * come back on the same port; a port the OS might meanwhile give to an outgoing connection (the
 * proxies', the machines') would make that restart fail with "port taken".
 */
export async function freePort(): Promise<number> {
  const top = Math.min(ephemeralStart(), 32768);
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20000 + Math.floor(Math.random() * (top - 20000));
    if (await canListen(port)) return port;
  }
  throw new Error('no free port below the ephemeral range');
}
