import type { MqttClient } from 'mqtt';

/** Topics of Mosquitto's dynamic-security control API (https://mosquitto.org/documentation/dynamic-security/). */
export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
export const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;

export type DynsecCommand = { command: string } & Record<string, unknown>;
export interface DynsecResponse {
  command: string;
  error?: string;
  data?: Record<string, unknown>;
}

/** The connection to the broker closed before the answer came; whether the command ran is unknown. */
export class ConnectionLost extends Error {
  constructor(detail = 'the connection to the MQTT broker was lost') {
    super(detail);
  }
}

/**
 * Commands per control message. Mosquitto 2.0 rewrites its whole identity file after each command, which takes
 * a quarter of a second at 20,000 machines (docs/external-mqtt.md, "Fleets of many thousands"), so a message's
 * answer comes after all of its commands: small messages keep each answer's wait short.
 */
const CHUNK = 20;
/** What each command of a message adds to the time its answer may take. */
const PER_COMMAND_MS = 1_000;

/**
 * Request and response over the plugin's control topics: each command carries a correlation id and its answer
 * is matched by it, so several processes (and Mosquitto's own tools) can share the response topic.
 */
export class DynsecControl {
  private readonly waiting = new Map<string, (response: DynsecResponse | Error) => void>();
  private sequence = 0;
  private readonly prefix = `wv-${process.pid}-${Date.now().toString(36)}-`;

  constructor(
    private readonly client: MqttClient,
    private readonly timeoutMs = 10_000,
  ) {
    client.on('message', (topic, payload) => {
      if (topic === DYNSEC_RESPONSE_TOPIC) this.onResponse(payload);
    });
    // Answers to commands sent on a connection that is gone never come.
    client.on('close', () => this.failWaiting(new ConnectionLost()));
  }

  /** Subscribes to the answers, now and after every reconnect; resolves once subscribed. */
  async start(): Promise<void> {
    this.client.on('close', () => this.unready());
    this.client.on('connect', () => this.subscribe());
    this.unready();
    if (this.client.connected) this.subscribe();
    await this.ready;
  }

  /** Settles once the answers' subscription of the current connection is in place. */
  private ready: Promise<void> = Promise.resolve();
  private settleReady: () => void = () => undefined;

  private unready(): void {
    this.ready = new Promise((resolve) => (this.settleReady = resolve));
  }

  private subscribe(): void {
    const settle = this.settleReady;
    this.client.subscribe(DYNSEC_RESPONSE_TOPIC, { qos: 1 }, () => settle());
  }

  /** Runs the commands in order; resolves with one response per command. Rejects when the broker does not answer. */
  async run(commands: DynsecCommand[]): Promise<DynsecResponse[]> {
    await this.ready;
    const responses: DynsecResponse[] = [];
    for (let i = 0; i < commands.length; i += CHUNK)
      responses.push(...(await this.runChunk(commands.slice(i, i + CHUNK))));
    return responses;
  }

  /** Runs the commands and throws on the first error that `tolerated` does not accept. */
  async apply(commands: DynsecCommand[], tolerated: (response: DynsecResponse) => boolean = () => false) {
    const responses = await this.run(commands);
    const failed = responses.find((r) => r.error !== undefined && !tolerated(r));
    if (failed) throw new Error(`dynamic security refused ${failed.command}: ${failed.error}`);
    return responses;
  }

  /**
   * Runs commands that may end this program's own session (Mosquitto disconnects a client whose roles change,
   * sometimes before its answers leave): resolves once they were answered or the connection is back.
   */
  async applyThroughKick(commands: DynsecCommand[]): Promise<void> {
    try {
      await this.apply(commands);
    } catch (error) {
      if (!(error instanceof ConnectionLost)) throw error;
    }
    await this.reconnected();
  }

  /** Runs `read` (commands that change nothing) again when the connection was lost while it waited. */
  async retried<T>(read: () => Promise<T>, attempts = 5): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.reconnected();
        return await read();
      } catch (error) {
        if (!(error instanceof ConnectionLost) || attempt >= attempts) throw error;
      }
    }
  }

  /** Waits until the connection is back and subscribed to the answers (a command sent before would go unanswered). */
  private async reconnected(): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    while (!this.client.connected) {
      if (Date.now() > deadline) throw new Error('the broker did not let this program reconnect');
      await new Promise((r) => setTimeout(r, 50));
    }
    await this.ready;
  }

  private runChunk(commands: DynsecCommand[]): Promise<DynsecResponse[]> {
    const ids = commands.map(() => `${this.prefix}${++this.sequence}`);
    const budgetMs = this.timeoutMs + PER_COMMAND_MS * commands.length;
    const answers = ids.map(
      (id) =>
        new Promise<DynsecResponse>((resolve, reject) => {
          const timer = setTimeout(() => {
            this.waiting.delete(id);
            reject(new Error(`the broker did not answer a dynamic-security command within ${budgetMs} ms`));
          }, budgetMs);
          this.waiting.set(id, (response) => {
            clearTimeout(timer);
            if (response instanceof Error) reject(response);
            else resolve(response);
          });
        }),
    );
    const message = { commands: commands.map((c, i) => ({ ...c, correlationData: ids[i] })) };
    this.client.publish(DYNSEC_TOPIC, JSON.stringify(message), { qos: 1 }, (error) => {
      if (!error) return;
      for (const id of ids) this.waiting.get(id)?.(new ConnectionLost(error.message));
    });
    return Promise.all(answers);
  }

  private onResponse(payload: Buffer): void {
    let parsed: { responses?: (DynsecResponse & { correlationData?: string })[] };
    try {
      parsed = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    for (const response of parsed.responses ?? []) {
      const id = response.correlationData;
      const resolve = id === undefined ? undefined : this.waiting.get(id);
      if (!resolve || id === undefined) continue;
      this.waiting.delete(id);
      resolve(response);
    }
  }

  /** Fails every command still waiting (the connection is closing). */
  close(): void {
    this.failWaiting(new Error('closed'));
  }

  private failWaiting(error: Error): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const settle of waiting) settle(error);
  }
}
