// A small TCP proxy between the program and PostgreSQL or Redis that can add latency, reset every
// connection, and blackhole traffic for a while. It runs as its own process (forked by
// fault-proxy.ts, driven over IPC) so that the soak's other work never delays the bytes it carries.
// Plain JavaScript: it is forked as is, outside Jest's TypeScript transform.
import net from 'node:net';

/** One direction of a connection: chunks wait here while latency or a blackhole holds them. */
class Lane {
  constructor(proxy, from, to) {
    this.proxy = proxy;
    this.from = from;
    this.to = to;
    this.queue = [];
    this.lastAt = 0;
    this.timer = null;
    this.ended = false;
  }

  push(chunk) {
    const { latencyMs, blackholed } = this.proxy;
    if (latencyMs === 0 && !blackholed && this.queue.length === 0) return this.write(chunk);
    // Never reorder: a chunk leaves after the one before it, whatever the latency became meanwhile.
    this.lastAt = Math.max(Date.now() + latencyMs, this.lastAt);
    this.queue.push({ chunk, at: this.lastAt });
    this.schedule();
  }

  end() {
    this.ended = true;
    this.schedule();
  }

  write(chunk) {
    if (this.to.destroyed) return;
    if (!this.to.write(chunk)) {
      this.from.pause();
      this.to.once('drain', () => {
        if (!this.proxy.blackholed) this.from.resume();
      });
    }
  }

  schedule() {
    if (this.timer || this.proxy.blackholed) return;
    const head = this.queue[0];
    if (!head) {
      if (this.ended && !this.to.destroyed) this.to.end();
      return;
    }
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (this.proxy.blackholed) return;
        const now = Date.now();
        while (this.queue.length && this.queue[0].at <= now) this.write(this.queue.shift().chunk);
        this.schedule();
      },
      Math.max(0, head.at - Date.now()),
    );
  }

  hold() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

class Proxy {
  constructor(name, targetPort, holdCloses = false) {
    this.name = name;
    this.targetPort = targetPort;
    // A blackhole that also swallows FIN and RST: while it lasts, one side closing is not seen by the
    // other, which only learns of it from its own timeouts (MQTT keepalive) or, once the network
    // heals, from the RST its next packet meets.
    this.holdCloses = holdCloses;
    this.latencyMs = 0;
    this.blackholed = false;
    this.pairs = new Set();
    this.counts = { accepted: 0, reset: 0, held: 0 };
    this.server = net.createServer((client) => this.accept(client));
    this.server.on('error', (error) => send({ event: 'error', name, message: error.message }));
  }

  listen() {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve(this.server.address().port)));
  }

  accept(client) {
    this.counts.accepted++;
    client.setNoDelay(true);
    const pair = { client, upstream: null, lanes: [] };
    this.pairs.add(pair);
    const forget = () => {
      if (this.holdCloses && this.blackholed) {
        pair.clientGone = true;
        return;
      }
      this.pairs.delete(pair);
      client.destroy();
      pair.upstream?.destroy();
    };
    client.on('error', forget);
    client.on('close', forget);
    if (this.blackholed) {
      // A SYN into a blackhole: the connection is not answered until the network heals.
      this.counts.held++;
      client.pause();
      pair.pendingConnect = true;
      return;
    }
    this.connect(pair);
  }

  connect(pair) {
    pair.pendingConnect = false;
    const upstream = net.connect(this.targetPort, '127.0.0.1');
    upstream.setNoDelay(true);
    pair.upstream = upstream;
    const up = new Lane(this, pair.client, upstream);
    const down = new Lane(this, upstream, pair.client);
    pair.lanes = [up, down];
    pair.client.on('data', (chunk) => up.push(chunk));
    pair.client.on('end', () => up.end());
    upstream.on('data', (chunk) => down.push(chunk));
    upstream.on('end', () => down.end());
    const fail = () => {
      if (this.holdCloses && this.blackholed) {
        pair.upstreamGone = true;
        return;
      }
      this.pairs.delete(pair);
      // The server went away (restart, refused): the client sees its connection reset.
      if (!pair.client.destroyed) pair.client.resetAndDestroy();
      upstream.destroy();
    };
    upstream.on('error', fail);
    // A server that closed cleanly (FIN after its last message) is passed on as such; only an
    // abrupt end becomes a reset of the client's connection.
    upstream.on('close', () => {
      if (!down.ended) fail();
    });
    pair.client.resume();
  }

  set({ latencyMs, blackholed }) {
    if (latencyMs !== undefined) this.latencyMs = latencyMs;
    if (blackholed === true && !this.blackholed) {
      this.blackholed = true;
      for (const pair of this.pairs) {
        pair.client.pause();
        pair.upstream?.pause();
        for (const lane of pair.lanes) lane.hold();
      }
    } else if (blackholed === false && this.blackholed) {
      this.blackholed = false;
      for (const pair of [...this.pairs]) {
        if (pair.clientGone || pair.upstreamGone) {
          // What one side closed in the dark: the other side's next packet now meets a RST.
          this.pairs.delete(pair);
          for (const lane of pair.lanes) lane.hold();
          if (!pair.client.destroyed) pair.client.resetAndDestroy();
          if (pair.upstream && !pair.upstream.destroyed) pair.upstream.resetAndDestroy();
          continue;
        }
        if (pair.pendingConnect) {
          this.connect(pair);
          continue;
        }
        pair.client.resume();
        pair.upstream?.resume();
        for (const lane of pair.lanes) lane.schedule();
      }
    }
  }

  /** Sends a TCP RST both ways on every connection, as a dropped NAT entry or a restarted peer would. */
  reset() {
    const pairs = [...this.pairs];
    this.pairs.clear();
    for (const pair of pairs) {
      for (const lane of pair.lanes) lane.hold();
      if (!pair.client.destroyed) pair.client.resetAndDestroy();
      if (pair.upstream && !pair.upstream.destroyed) pair.upstream.resetAndDestroy();
    }
    this.counts.reset += pairs.length;
    return pairs.length;
  }

  /**
   * Forgets every open connection without telling the client, as a NAT or firewall that lost its
   * state does: the server side is closed, the client's socket stays open and silent, and what the
   * client sends is read and dropped. Only the client's own timeouts can end such a connection.
   */
  drop() {
    const pairs = [...this.pairs];
    this.pairs.clear();
    for (const pair of pairs) {
      for (const lane of pair.lanes) lane.hold();
      pair.client.removeAllListeners('data');
      pair.client.removeAllListeners('end');
      pair.client.on('data', () => undefined);
      pair.client.resume();
      pair.upstream?.removeAllListeners('close');
      pair.upstream?.removeAllListeners('end');
      pair.upstream?.on('error', () => undefined);
      pair.upstream?.destroy();
    }
    this.counts.dropped = (this.counts.dropped ?? 0) + pairs.length;
    return pairs.length;
  }

  /** Stops listening and resets every connection (the proxy is being replaced or the run is over). */
  close() {
    this.reset();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  stats() {
    return { ...this.counts, open: this.pairs.size, latencyMs: this.latencyMs, blackholed: this.blackholed };
  }
}

const proxies = new Map();

function send(message) {
  if (process.connected) process.send(message);
}

process.on('message', async (message) => {
  const { id, op, name } = message;
  try {
    if (op === 'listen') {
      await proxies.get(name)?.close();
      const proxy = new Proxy(name, message.targetPort, message.holdCloses === true);
      proxies.set(name, proxy);
      send({ id, ok: true, port: await proxy.listen() });
    } else if (op === 'set') {
      proxies.get(name).set(message);
      send({ id, ok: true });
    } else if (op === 'reset') {
      send({ id, ok: true, count: proxies.get(name).reset() });
    } else if (op === 'drop') {
      send({ id, ok: true, count: proxies.get(name).drop() });
    } else if (op === 'close') {
      await proxies.get(name)?.close();
      proxies.delete(name);
      send({ id, ok: true });
    } else if (op === 'stats') {
      send({ id, ok: true, stats: Object.fromEntries([...proxies].map(([n, p]) => [n, p.stats()])) });
    } else {
      send({ id, ok: false, error: `unknown op ${op}` });
    }
  } catch (error) {
    send({ id, ok: false, error: error.message });
  }
});

// The soak owns this process: when it goes away, so does the proxy.
process.on('disconnect', () => process.exit(0));
