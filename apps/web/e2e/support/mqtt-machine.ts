import { connectAsync, type MqttClient } from 'mqtt';
import { buildConfigAckTopic, buildSalesTopic, buildStatusTopic, type Sale } from '@wv/contracts';
import type { Machine } from './seed.js';

/**
 * A vending machine on the embedded broker, as the firmware connects (docs/device-protocol.md, "Identity and
 * provisioning"): username = ESP ID, password = device key, client id = ESP ID, MQTT 3.1.1.
 */
export class MqttMachine {
  private constructor(
    private readonly client: MqttClient,
    readonly espId: string,
  ) {}

  static async connect(mqttPort: number, machine: Machine): Promise<MqttMachine> {
    const client = await connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      clientId: machine.espId,
      username: machine.espId,
      password: machine.deviceKey,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
    });
    return new MqttMachine(client, machine.espId);
  }

  /** One sale at QoS 1: resolves on PUBACK, when the server has it durably. */
  async publishSale(sale: Sale): Promise<void> {
    await this.client.publishAsync(buildSalesTopic(this.espId), JSON.stringify(sale), { qos: 1 });
  }

  async publishStatus(online: boolean): Promise<void> {
    await this.client.publishAsync(buildStatusTopic(this.espId), JSON.stringify({ online }), { qos: 1, retain: true });
  }

  /** The machine reports that it applied a config version. */
  async ackConfig(version: number): Promise<void> {
    await this.client.publishAsync(buildConfigAckTopic(this.espId), JSON.stringify({ version }), { qos: 1 });
  }

  async close(): Promise<void> {
    await this.client.endAsync();
  }
}
