import { buildAssignmentTopic, buildHelloTopic, macToTopicId, normalizeMac, PROVISION_USERNAME } from '@wv/contracts';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

export interface Assignment {
  espId: string;
  deviceKey: string;
}

const options = (clientId: string, username: string, password: string): IClientOptions => ({
  clientId,
  username,
  password,
  protocolVersion: 4,
  reconnectPeriod: 0,
  connectTimeout: 5000,
});

/**
 * An MQTT client on the provisioning side of the device protocol (docs/device-protocol.md, "Identity and
 * provisioning"): username `provision`, client id = a MAC as 12 upper-case hex digits, password = a secret it chose. It
 * records every message that reaches its assignment topic, empty ones (a cleared retained message) included.
 */
export class ProvisioningClient {
  /** Payloads received on the assignment topic, in order. */
  readonly received: string[] = [];
  private closedFlag = false;

  private constructor(
    readonly macAddress: string,
    readonly client: MqttClient,
  ) {
    client.on('message', (topic, payload) => {
      if (topic === buildAssignmentTopic(this.topicId)) this.received.push(payload.toString('utf8'));
    });
    client.on('close', () => (this.closedFlag = true));
  }

  get topicId(): string {
    return macToTopicId(this.macAddress);
  }

  /** True once the broker (or anyone) closed this connection. */
  get closed(): boolean {
    return this.closedFlag;
  }

  static async connect(port: number, macAddress: string, secret: string): Promise<ProvisioningClient> {
    const mac = normalizeMac(macAddress);
    const client = await mqtt.connectAsync(
      `mqtt://127.0.0.1:${port}`,
      options(macToTopicId(mac), PROVISION_USERNAME, secret),
    );
    return new ProvisioningClient(mac, client);
  }

  /** Subscribes to its own assignment topic; resolves with the granted QoS (128 = refused). */
  async subscribe(): Promise<number> {
    const granted = await this.client.subscribeAsync(buildAssignmentTopic(this.topicId), { qos: 1 });
    return granted[0]!.qos;
  }

  /** Announces itself (QoS 1, resolves on PUBACK). */
  async hello(firmware = 'abuse-test'): Promise<void> {
    await this.client.publishAsync(
      buildHelloTopic(this.topicId),
      JSON.stringify({ macAddress: this.macAddress, firmware }),
      {
        qos: 1,
      },
    );
  }

  /** The first non-empty assignment received, waiting up to `timeoutMs`. */
  async waitForAssignment(timeoutMs = 10_000): Promise<Assignment> {
    await this.waitUntil(() => this.assignments().length > 0, timeoutMs, 'no assignment arrived');
    return this.assignments()[0]!;
  }

  assignments(): Assignment[] {
    return this.received.filter((p) => p.length > 0).map((p) => JSON.parse(p) as Assignment);
  }

  async waitUntil(ok: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  end(): Promise<void> {
    return this.client.endAsync(true);
  }
}

/**
 * Tries a CONNECT and tells how it ended: the CONNACK return code of a refusal (MQTT 3.1.1
 * section 3.2.2.3), or 0 when the connection was accepted (it is closed again at once).
 */
export async function connectOutcome(port: number, clientId: string, username: string, password: string) {
  try {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, options(clientId, username, password));
    await client.endAsync(true);
    return 0;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'number') return code;
    throw error;
  }
}

/** CONNACK return codes of MQTT 3.1.1 (section 3.2.2.3). */
export const Connack = { IdentifierRejected: 2, ServerUnavailable: 3, BadUsernameOrPassword: 4, NotAuthorized: 5 };
