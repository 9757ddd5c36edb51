import {
  buildCardsAckTopic,
  buildCardsDeltaTopic,
  buildCardsTopic,
  buildSalesTopic,
  cardListDeltaPayloadSchema,
  cardListPayloadSchema,
  type CardListDeltaPayload,
  type CardListEntry,
  type CardListPayload,
} from '@wv/contracts';
import mqtt, { type MqttClient } from 'mqtt';

export type CardListMessage =
  | { kind: 'full'; payload: CardListPayload; retained: boolean; at: number }
  | { kind: 'delta'; payload: CardListDeltaPayload; at: number };

/** What a machine's flash holds: its card list and its version (docs/device-protocol.md, "Card lists"). */
export interface HeldList {
  version: number;
  cards: Map<string, CardListEntry>;
}

/**
 * A real mqtt.js client that keeps a card list as the firmware would: it applies a full list whose
 * version is newer than the one it holds, a delta only on the version it holds, and acknowledges
 * what it holds. `ignoreDeltas` drops deltas unapplied and unacknowledged (a machine that missed one).
 */
export class CardListMachine {
  readonly messages: CardListMessage[] = [];
  ignoreDeltas = false;
  private waiters: (() => void)[] = [];

  private constructor(
    readonly espId: string,
    readonly client: MqttClient,
    readonly held: HeldList,
  ) {
    client.on('message', (topic, raw, packet) => {
      const json = JSON.parse(raw.toString());
      if (topic === buildCardsTopic(espId)) {
        const payload = cardListPayloadSchema.parse(json);
        this.messages.push({ kind: 'full', payload, retained: packet.retain, at: Date.now() });
        if (payload.version > this.held.version) {
          this.held.version = payload.version;
          this.held.cards = new Map(payload.cards.map((c) => [c.cardId, c]));
          this.ack();
        }
      } else if (topic === buildCardsDeltaTopic(espId)) {
        const payload = cardListDeltaPayloadSchema.parse(json);
        this.messages.push({ kind: 'delta', payload, at: Date.now() });
        if (!this.ignoreDeltas && payload.baseVersion === this.held.version) {
          for (const c of payload.upserts) this.held.cards.set(c.cardId, c);
          for (const id of payload.removals) this.held.cards.delete(id);
          this.held.version = payload.version;
          this.ack();
        }
      }
      this.waiters.forEach((w) => w());
    });
  }

  /** Connects, subscribes to its lists and says which version it holds (0 when none), as at boot. */
  static async connect(
    port: number,
    espId: string,
    key: string,
    held: HeldList = { version: 0, cards: new Map() },
  ): Promise<CardListMachine> {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      clientId: espId,
      username: espId,
      password: key,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
    });
    const machine = new CardListMachine(espId, client, held);
    await client.subscribeAsync([buildCardsTopic(espId), buildCardsDeltaTopic(espId)], { qos: 1 });
    machine.ack();
    return machine;
  }

  ack(version = this.held.version): void {
    // A test that ends the connection may leave an acknowledgement unsent: nothing waits for it.
    this.client.publish(buildCardsAckTopic(this.espId), JSON.stringify({ version }), { qos: 1 }, () => undefined);
  }

  publishSales(sales: unknown[]): Promise<unknown> {
    return this.client.publishAsync(buildSalesTopic(this.espId), JSON.stringify(sales), { qos: 1 });
  }

  balanceOf(cardId: string): number | undefined {
    return this.held.cards.get(cardId)?.balance;
  }

  /** Resolves when `ok` holds; checks after every message and every 250 ms. */
  async until(ok: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!ok()) {
      if (Date.now() > deadline) {
        throw new Error(`${this.espId}: ${what} not seen in ${timeoutMs} ms; holds v${this.held.version}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 250);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.waiters = [];
    }
  }

  messagesSince(at: number): CardListMessage[] {
    return this.messages.filter((m) => m.at >= at);
  }

  end(): Promise<void> {
    return this.client.endAsync(true);
  }
}
