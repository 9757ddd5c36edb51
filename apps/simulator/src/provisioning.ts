import {
  assignmentPayloadSchema,
  buildAssignmentTopic,
  buildHelloTopic,
  macToTopicId,
  normalizeMac,
  PROVISION_USERNAME,
} from '@wv/contracts';
import { EventEmitter } from 'node:events';
import type { MachineCredentials } from './machine.types.js';
import { MqttLink, type MqttLinkOptions } from './mqtt-link.js';

export interface ProvisioningOptions extends Pick<
  MqttLinkOptions,
  'url' | 'reconnectDelayMs' | 'connectTimeoutMs' | 'keepaliveSeconds'
> {
  macAddress: string;
  password: string;
  firmware: string;
}

export interface ProvisioningEvents {
  /** Connected and announced (after every reconnect). */
  waiting: [];
  assigned: [credentials: MachineCredentials];
  refused: [error: Error];
}

/**
 * The first-boot flow (docs/device-protocol.md, "Identity and provisioning"): connect as `provision` with the MAC as
 * client id, subscribe to the retained assignment, say hello, and wait for `{espId, deviceKey}`.
 */
export class ProvisioningSession extends EventEmitter<ProvisioningEvents> {
  private readonly link: MqttLink;
  private readonly topicId: string;
  private done = false;

  constructor(private readonly options: ProvisioningOptions) {
    super();
    this.topicId = macToTopicId(options.macAddress);
    this.link = new MqttLink({
      ...options,
      clientId: this.topicId,
      username: PROVISION_USERNAME,
      password: options.password,
      // The assignment is retained, so a fresh session still receives it on subscribe.
      clean: true,
    });
    this.link.on('connect', () => void this.announce());
    this.link.on('message', (topic, payload) => this.onMessage(topic, payload));
    this.link.on('refused', (err) => this.emit('refused', err));
  }

  get connected(): boolean {
    return this.link.connected;
  }

  get lastError(): string | null {
    return this.link.lastError;
  }

  start(): void {
    this.link.open();
  }

  stop(): Promise<void> {
    this.done = true;
    return this.link.close();
  }

  private async announce(): Promise<void> {
    try {
      // Subscribe before hello, so that an assignment made right after the hello is not missed.
      await this.link.subscribe([buildAssignmentTopic(this.topicId)]);
      const hello = { macAddress: normalizeMac(this.options.macAddress), firmware: this.options.firmware };
      await this.link.publish(buildHelloTopic(this.topicId), JSON.stringify(hello));
      if (!this.done) this.emit('waiting');
    } catch {
      // The link dropped meanwhile; the next connect announces again.
    }
  }

  private onMessage(topic: string, payload: Buffer): void {
    if (this.done || topic !== buildAssignmentTopic(this.topicId)) return;
    let parsed;
    try {
      parsed = assignmentPayloadSchema.safeParse(JSON.parse(payload.toString('utf8')));
    } catch {
      return; // An empty retained message clears the assignment; nothing to apply.
    }
    if (!parsed.success) return;
    this.done = true;
    this.emit('assigned', { espId: parsed.data.espId, deviceKey: parsed.data.deviceKey });
  }
}
