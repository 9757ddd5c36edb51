import {
  buildCardsAckTopic,
  buildCardsDeltaTopic,
  buildCardsTopic,
  buildConfigTopic,
  buildSalesAckTopic,
  buildStatusTopic,
  type StatusPayload,
} from '@wv/contracts';
import { EventEmitter } from 'node:events';
import { parseInboundMessage, type InboundMessage } from './inbound-message.js';
import { DEFAULT_FIRMWARE, type MachineCredentials, type MachineOptions, type MachineState } from './machine.types.js';
import { linkTimings, MqttLink } from './mqtt-link.js';
import type { Random } from './prng.js';
import { ProvisioningSession } from './provisioning.js';

export interface MachineConnectionEvents {
  /** Connected as the machine, subscribed, status published: sales may flow. */
  online: [link: MqttLink, espId: string];
  offline: [];
  waiting: [];
  provisioned: [credentials: MachineCredentials];
  refused: [error: Error];
  message: [message: InboundMessage, espId: string];
}

const OFFLINE_STATUS = JSON.stringify({ online: false });

/** What the connection asks the machine's flash when it (re)connects. */
export interface MachineFlash {
  /** Sales in flash not yet acknowledged. */
  queued(): number;
  /** The version of the card list held (0: none). */
  cardListVersion(): number;
}

/**
 * A machine's life on the network: first boot through provisioning when it has no id, then its own
 * persistent session with the retained status and its will (docs/device-protocol.md, "Status and will").
 */
export class MachineConnection extends EventEmitter<MachineConnectionEvents> {
  private stateValue: MachineState = 'idle';
  private link: MqttLink | null = null;
  private provisioning: ProvisioningSession | null = null;
  /** The signal strength reported at this connection; later status messages repeat it. */
  private rssi = 0;

  constructor(
    private readonly options: MachineOptions,
    private credentialsValue: MachineCredentials | null,
    private readonly macAddress: string,
    private readonly provisionPassword: string,
    private readonly rng: Random,
    private readonly flash: MachineFlash = { queued: () => 0, cardListVersion: () => 0 },
  ) {
    super();
  }

  get state(): MachineState {
    return this.stateValue;
  }
  get credentials(): MachineCredentials | null {
    return this.credentialsValue;
  }
  /** Connected as `provision` and waiting for an admin to assign an id. */
  get awaitingId(): boolean {
    return this.stateValue === 'provisioning' && this.provisioning?.connected === true;
  }
  get lastError(): string | null {
    return this.link?.lastError ?? this.provisioning?.lastError ?? null;
  }

  start(): void {
    if (this.stateValue !== 'idle') return;
    if (this.credentialsValue) this.connectAsMachine();
    else this.startProvisioning();
  }

  /** The socket dies without DISCONNECT, so the broker publishes the will; `reopen()` comes back. */
  kill(): boolean {
    if (!this.link || this.stateValue === 'stopped') return false;
    this.link.kill();
    this.setOffline();
    return true;
  }

  reopen(): void {
    if (this.stateValue === 'offline') this.link?.open();
  }

  /** Publishes the retained status again, with the sales in flash now (after a backlog drained). */
  publishStatus(): Promise<void> {
    const espId = this.credentialsValue?.espId;
    if (!this.link || !espId || this.stateValue !== 'online') return Promise.reject(new Error('not connected'));
    return this.link.publish(buildStatusTopic(espId), JSON.stringify(this.status()), true);
  }

  publish(topic: string, payload: string): Promise<void> {
    return this.link ? this.link.publish(topic, payload) : Promise.reject(new Error('not connected'));
  }

  /** Says `{online:false}` itself, since a clean DISCONNECT fires no will. */
  async stop(): Promise<void> {
    if (this.stateValue === 'stopped') return;
    this.stateValue = 'stopped';
    await this.provisioning?.stop();
    const espId = this.credentialsValue?.espId;
    if (this.link && espId) {
      await this.link.close({ topic: buildStatusTopic(espId), payload: OFFLINE_STATUS, retain: true });
    }
  }

  private startProvisioning(): void {
    this.stateValue = 'provisioning';
    const session = new ProvisioningSession({
      ...linkTimings(this.options),
      macAddress: this.macAddress,
      password: this.provisionPassword,
      firmware: this.options.firmware ?? DEFAULT_FIRMWARE,
    });
    this.provisioning = session;
    session.on('waiting', () => this.emit('waiting'));
    session.on('refused', (err) => this.emit('refused', err));
    session.on('assigned', (credentials) => {
      this.credentialsValue = credentials;
      this.emit('provisioned', credentials);
      // A clean disconnect from the provisioning session before connecting under the new id.
      void session.stop().then(() => {
        this.provisioning = null;
        if (this.stateValue === 'provisioning') this.connectAsMachine();
      });
    });
    session.start();
  }

  private connectAsMachine(): void {
    const { espId, deviceKey } = this.credentialsValue!;
    this.stateValue = 'connecting';
    const link = new MqttLink({
      ...linkTimings(this.options),
      clientId: espId,
      username: espId,
      password: deviceKey,
      clean: false,
      will: { topic: buildStatusTopic(espId), payload: OFFLINE_STATUS },
    });
    this.link = link;
    link.on('connect', () => void this.onConnect(link, espId));
    link.on('down', () => this.setOffline());
    link.on('refused', (err) => this.emit('refused', err));
    link.on('message', (topic, payload) => this.emit('message', parseInboundMessage(espId, topic, payload), espId));
    link.open();
  }

  /**
   * The order of docs/device-protocol.md, "Boot, offline and reconnect: the order of operations": subscribe
   * first (on a new session a sales/ack or card list sent before the SUBACK is lost), then the retained status
   * with the sales still in flash, then the card list version held; only then do sales flow (`online`).
   */
  private async onConnect(link: MqttLink, espId: string): Promise<void> {
    try {
      await link.subscribe([
        buildConfigTopic(espId),
        buildSalesAckTopic(espId),
        buildCardsTopic(espId),
        buildCardsDeltaTopic(espId),
      ]);
      this.rssi = this.rng.int(-85, -45);
      await link.publish(buildStatusTopic(espId), JSON.stringify(this.status()), true);
      await link.publish(buildCardsAckTopic(espId), JSON.stringify({ version: this.flash.cardListVersion() }));
    } catch (err) {
      // Usually the connection dropped meanwhile and the next connect starts over; a refused
      // subscription (the broker's ACL) is worth saying.
      if (link.connected) this.options.log?.(`${espId}: cannot start its session: ${(err as Error).message}`);
      return;
    }
    if (this.stateValue === 'stopped' || !link.connected) return;
    this.stateValue = 'online';
    this.emit('online', link, espId);
  }

  private status(): StatusPayload {
    const firmware = this.options.firmware ?? DEFAULT_FIRMWARE;
    return { online: true, firmware, rssi: this.rssi, queued: this.flash.queued() };
  }

  private setOffline(): void {
    if (this.stateValue === 'stopped') return;
    const wasOnline = this.stateValue === 'online';
    this.stateValue = 'offline';
    if (wasOnline) this.emit('offline');
  }
}
