import {
  buildCardsAckTopic,
  buildConfigAckTopic,
  buildTelemetryTopic,
  normalizeMac,
  type CardListEntry,
  type ConfigPayload,
  type Sale,
} from '@wv/contracts';
import { EventEmitter } from 'node:events';
import { CardList, type CardRefusal } from './card-list.js';
import { dayCurveFactor, DEFAULT_TIME_ZONE, localHour } from './day-curve.js';
import type { FaultKind } from './fault.js';
import type { InboundMessage } from './inbound-message.js';
import { MachineConnection } from './machine-connection.js';
import { MachineFaults } from './machine-faults.js';
import { HealthModel, type TelemetryMessage } from './machine-health.js';
import { ESPRESSIF_OUI } from './machine-identity.js';
import { MachineTimers } from './machine-timers.js';
import type { MachineCredentials, MachineEvents, MachineOptions, MachineState, MachineStats } from './machine.types.js';
import { createRandom, type Random } from './prng.js';
import { generateSale, randomCardId } from './sale-generator.js';
import { SaleScheduler } from './sale-scheduler.js';
import { SaleUplink } from './sale-uplink.js';
import { applyConfigTariffs, DEFAULT_TARIFFS, type Tariffs } from './tariff.js';
import { TelemetryReporter } from './telemetry-reporter.js';
import { waitForCondition } from './wait-for.js';

/** Random card UIDs a machine uses when it is given no card list. */
const RANDOM_CARD_POOL = 20;
/** Salts of the machine's own random streams for its physics and its faults (the sale mix keeps its own). */
const HEALTH_SALT = 0x4ea1;
const FAULT_SALT = 0xfa17;

/** A sale with the litres its flow meter measured (docs/device-protocol.md, "Sales"). */
export type MeteredSale = Sale & { dispensed: number };

/** What came of a customer at the machine: a sale, or a card the machine turned away. */
export type SaleAttempt = { sale: MeteredSale; refused?: undefined } | { sale?: undefined; refused: CardRefusal };

/**
 * One simulated ESP32 vending machine: one MQTT client, a flash outbox, a sales generator, the config
 * it was given and its card list. Sells while offline too, numbering every sale (`seq`) and marking
 * those made without a connection (`offline`); the outbox delivers once it is back, oldest first
 * (docs/device-protocol.md, "Boot, offline and reconnect: the order of operations").
 */
export class Machine extends EventEmitter<MachineEvents> {
  readonly macAddress: string;
  private readonly rng: Random;
  private readonly now: () => Date;
  private readonly cards: readonly string[];
  private readonly bootId: string;
  private readonly connection: MachineConnection;
  private readonly uplink: SaleUplink;
  private readonly scheduler: SaleScheduler;
  private readonly timers: MachineTimers;
  private readonly health: HealthModel;
  private readonly faults: MachineFaults;
  private readonly telemetry: TelemetryReporter;
  /** The card list in flash: kept across reconnects, as flash keeps it across power cycles. */
  private readonly cardList: CardList;
  private tariffsValue: Tariffs;
  private configValue: ConfigPayload | null = null;
  private rateValue: number;
  private eventCounter = 0;
  private generated = 0;
  private connects = 0;
  private telemetrySent = 0;
  /** The last `seq` given: kept in flash with the sales, never reused. */
  private seqValue = 0;
  private offlineSales = 0;
  private cardsRefused = 0;
  /** `queued` in the last status published: a backlog that drains is reported with a new status. */
  private reportedQueued = 0;
  /** Cut off the network by `cutOff()` until `reconnect()`: no other comeback reconnects it meanwhile. */
  private cutOffValue = false;
  /** Selling paused by the caller (pauseSelling), as opposed to by a fault. */
  private sellingPaused = false;

  constructor(private readonly options: MachineOptions) {
    super();
    this.rng = options.random ?? createRandom();
    this.now = options.now ?? (() => new Date());
    const id = options.identity;
    this.macAddress = normalizeMac('macAddress' in id ? id.macAddress : `${ESPRESSIF_OUI}${this.rng.hex(6)}`);
    const credentials = 'espId' in id ? { espId: id.espId, deviceKey: id.deviceKey } : null;
    // "A password it chose at first boot": fixed for the machine's life, reproducible with --seed.
    const provisionPassword = ('provisionPassword' in id && id.provisionPassword) || this.rng.hex(16);
    const cards = id.cards?.length ? id.cards : options.cards;
    this.cards = cards?.length ? cards : Array.from({ length: RANDOM_CARD_POOL }, () => randomCardId(this.rng));
    // Time-based, so that two runs with the same --seed never reuse an eventId the server stored.
    this.bootId = options.bootId ?? `${Date.now().toString(36)}${this.rng.hex(4).toLowerCase()}`;
    this.tariffsValue = { ...DEFAULT_TARIFFS, ...options.tariffs };
    this.rateValue = options.rate ?? 0;
    this.uplink = new SaleUplink(this.rng, options, (eventIds) => this.emit('pubacked', eventIds));
    // Below the tank's low-level switch nobody can buy water: the customer walks on.
    const onSale = () => {
      if (!this.health.outOfWater) this.sell();
    };
    this.scheduler = new SaleScheduler({ rng: this.rng, rate: () => this.currentRate(), onSale });
    this.health = new HealthModel(this.rng.fork(HEALTH_SALT), this.rateValue, this.now().getTime(), options.health);
    this.faults = new MachineFaults(this.rng.fork(FAULT_SALT), {
      begin: (kind) => this.applyFault(kind, true),
      end: (kind) => this.applyFault(kind, false),
    });
    const phase = this.rng.fork(HEALTH_SALT + 1);
    this.telemetry = new TelemetryReporter(options.telemetryIntervalMs ?? 0, () => this.sendTelemetry(), phase.next);
    this.timers = new MachineTimers({
      rng: this.rng,
      offlineProbability: options.offlineProbability ?? 0,
      offlineCheckMs: options.offlineCheckMs ?? 10_000,
      offlineDurationMs: options.offlineDurationMs ?? [5_000, 30_000],
      resendAfterMs: options.resendAfterMs ?? 60_000,
      isOnline: () => this.online,
      goOffline: (ms) => this.goOffline(ms),
      resendStale: (before) => this.uplink.resendStale(before),
    });
    this.cardList = new CardList(options.timeZone ?? DEFAULT_TIME_ZONE);
    this.connection = new MachineConnection(options, credentials, this.macAddress, provisionPassword, this.rng, {
      queued: () => (this.reportedQueued = this.uplink.outbox.size),
      cardListVersion: () => this.cardList.version,
    });
    this.wireConnection();
  }

  get espId(): string | null {
    return this.connection.credentials?.espId ?? null;
  }
  get credentials(): MachineCredentials | null {
    return this.connection.credentials;
  }
  get state(): MachineState {
    return this.connection.state;
  }
  get online(): boolean {
    return this.connection.state === 'online';
  }
  get tariffs(): Tariffs {
    return { ...this.tariffsValue };
  }
  get config(): ConfigPayload | null {
    return this.configValue;
  }
  get outboxSize(): number {
    return this.uplink.outbox.size;
  }
  /** The `seq` of the last sale made (0 before any). */
  get lastSeq(): number {
    return this.seqValue;
  }
  /** The version of the card list held (0: none yet). */
  get cardListVersion(): number {
    return this.cardList.version;
  }
  /** The cards held, as the machine sees them now (its own balance, after its sales since the list). */
  get heldCards(): CardListEntry[] {
    return this.cardList.cardIds().map((id) => this.cardList.card(id)!);
  }
  /** Cut off the network by `cutOff()` and not yet back. */
  get isCutOff(): boolean {
    return this.cutOffValue;
  }
  get rate(): number {
    return this.rateValue;
  }
  /** Connected as `provision` and waiting for an admin to assign an id. */
  get awaitingId(): boolean {
    return this.connection.awaitingId;
  }
  /** Why the last connection attempt failed (refused, unreachable), if it did. */
  get lastError(): string | null {
    return this.connection.lastError;
  }

  /** The faults on now (fault.ts). */
  get faultKinds(): FaultKind[] {
    return this.faults.kinds;
  }

  /** Sets the mean sales per second (a fleet spreads its rate over its machines this way). */
  setRate(rate: number): void {
    this.rateValue = rate;
    this.health.resize(rate);
    if (this.scheduler.running) this.scheduler.start();
  }

  /** Boots: provisions first when the machine has no id, then connects and sells at `rate`. */
  start(): void {
    if (this.state !== 'idle') return;
    this.connection.start();
    this.scheduler.start();
    this.timers.start();
    this.telemetry.start();
  }

  /** Waits until the machine is connected under its ESP ID. */
  waitOnline(timeoutMs = 10_000): Promise<void> {
    return this.waitUntil('online', () => this.online, timeoutMs);
  }

  /** Waits until the retained assignment has given the machine its id. */
  async waitProvisioned(timeoutMs = 10_000): Promise<MachineCredentials> {
    await this.waitUntil('provisioned', () => this.credentials !== null, timeoutMs);
    return this.credentials!;
  }

  /**
   * One sale now, as if a customer paid: into the outbox, and out to the broker when online. With
   * `sellFromCardList`, a card the machine turns away (see `trySell`) is followed by the same customer
   * paying with coins, so this always makes a sale.
   */
  sell(overrides: Partial<MeteredSale> = {}): MeteredSale {
    const attempt = this.trySell(overrides);
    if (attempt.sale) return attempt.sale;
    return this.trySell({ ...overrides, kind: 'coin', cardId: undefined }).sale!;
  }

  /**
   * A customer at the machine. With `sellFromCardList`, a card sale is decided here as firmware does,
   * online or offline, against the card list held: a card not on it, blocked, past its daily limit or
   * short of balance is refused (no sale; `cardRefused` is emitted). Otherwise the sale is made.
   */
  trySell(overrides: Partial<MeteredSale> = {}): SaleAttempt {
    const time = this.now();
    const fromList = this.options.sellFromCardList === true;
    const generated = generateSale(this.rng, {
      eventId: '',
      tariffs: this.tariffsValue,
      cards: fromList ? this.cardList.cardIds() : this.cards,
      time,
    });
    const drawn: Partial<MeteredSale> & Sale = { ...generated, ...overrides };
    if (drawn.cardId === undefined) delete drawn.cardId;
    if (fromList && drawn.kind === 'card') {
      const refusal = this.cardList.check(drawn.cardId ?? '', drawn.volume, drawn.price, time);
      if (refusal) {
        this.cardsRefused++;
        this.emit('cardRefused', refusal);
        return { refused: refusal };
      }
    }
    return { sale: this.record(drawn, time) };
  }

  /** Writes a decided sale to flash: its eventId, the next `seq`, `offline` when there is no connection. */
  private record(drawn: Partial<MeteredSale> & Sale, time: Date): MeteredSale {
    const offline = !this.online;
    const sale: MeteredSale = {
      ...drawn,
      eventId: drawn.eventId || `${this.bootId}-${++this.eventCounter}`,
      seq: drawn.seq ?? ++this.seqValue,
      ...(offline ? { offline: true } : {}),
      dispensed: drawn.dispensed ?? this.faults.dispensed(drawn.volume),
    };
    if (offline) this.offlineSales++;
    this.health.recordSale(sale, sale.dispensed, time.getTime());
    if (sale.kind === 'card' && sale.cardId)
      this.cardList.record(sale.eventId, sale.cardId, sale.volume, sale.price, time);
    this.generated++;
    const overwritten = this.uplink.add(sale);
    if (overwritten) this.cardList.forget(overwritten.eventId);
    this.emit('sale', sale);
    const p = this.options.duplicateProbability ?? 0;
    if (p > 0 && this.rng.next() < p) this.uplink.sendDuplicate();
    return sale;
  }

  pauseSelling(): void {
    this.sellingPaused = true;
    this.scheduler.stop();
  }

  resumeSelling(): void {
    this.sellingPaused = false;
    this.restartSelling();
  }

  /**
   * Starts a scripted fault (fault.ts) that ends by itself after `durationMs`; starting one that is
   * on already extends it.
   */
  startFault(kind: FaultKind, durationMs: number): void {
    this.faults.start(kind, durationMs);
  }

  /** Ends a fault now; false when it was not on. */
  endFault(kind: FaultKind): boolean {
    return this.faults.end(kind);
  }

  /** Ends every fault now (a dark machine comes back). */
  endFaults(): void {
    this.faults.endAll();
  }

  /** The telemetry the machine would send now (its physical state with sensor noise). */
  readTelemetry(): TelemetryMessage {
    return this.health.reading(this.now().getTime());
  }

  /** Empties the coin box, as the attendant does. */
  emptyCoinBox(): void {
    this.health.emptyCoinBox();
  }

  /** Loses the connection without DISCONNECT (the will fires), keeps selling, and is back after `durationMs`. */
  goOffline(durationMs: number): void {
    // A machine gone dark, or cut off until told, stays away even when its Wi-Fi outage ends first.
    if (this.connection.kill()) this.timers.after(durationMs, () => this.comeBack());
  }

  /**
   * Cuts the machine off the network until `reconnect()` (a partition): the socket dies without
   * DISCONNECT (the will fires), and the machine keeps selling into flash, `offline: true`.
   */
  cutOff(): void {
    // A machine still provisioning has no connection of its own to cut yet.
    if (this.state === 'stopped' || this.state === 'idle' || !this.espId) return;
    this.cutOffValue = true;
    this.connection.kill();
  }

  /** Ends a `cutOff()`: the machine connects again and sends its backlog (unless it is dark). */
  reconnect(): void {
    if (!this.cutOffValue) return;
    this.cutOffValue = false;
    this.comeBack();
  }

  /** Ends the outage simulation: no more random outages, and a machine that is out (or cut off) comes back now. */
  stopOutages(): void {
    this.timers.stopOutages();
    this.cutOffValue = false;
    this.comeBack();
  }

  /** A Wi-Fi blip: the socket dies and the machine reconnects at once. */
  dropConnection(): void {
    this.goOffline(0);
  }

  /** Resolves once every sale made so far has its sales/ack; rejects after `timeoutMs`. */
  drain(timeoutMs = 10_000): Promise<void> {
    const outbox = this.uplink.outbox;
    const why = () => `${this.name}: ${outbox.size} sales still without sales/ack after ${timeoutMs} ms`;
    return waitForCondition(this, 'acked', () => outbox.size === 0, timeoutMs, why);
  }

  stats(): MachineStats {
    return {
      espId: this.espId,
      macAddress: this.macAddress,
      state: this.state,
      online: this.online,
      generated: this.generated,
      ...this.uplink.counters,
      reconnects: Math.max(0, this.connects - 1),
      telemetrySent: this.telemetrySent,
      faults: this.faults.kinds,
      outbox: this.uplink.outbox.size,
      dropped: this.uplink.outbox.dropped,
      configVersion: this.configValue?.version ?? null,
      lastSeq: this.seqValue,
      offlineSales: this.offlineSales,
      cardsRefused: this.cardsRefused,
      cardListVersion: this.cardList.version,
      cutOff: this.cutOffValue,
    };
  }

  /** Stops selling and disconnects cleanly after publishing `{online:false}`. */
  async stop(): Promise<void> {
    this.scheduler.stop();
    this.timers.stop();
    this.telemetry.stop();
    this.faults.cancelAll();
    await this.connection.stop();
  }

  private get name(): string {
    return this.espId ?? this.macAddress;
  }

  private wireConnection(): void {
    const c = this.connection;
    c.on('online', (link, espId) => {
      this.connects++;
      this.uplink.attach(link, espId);
      this.emit('online');
      // A machine reports its state as soon as it is back, then on its interval.
      if (this.telemetry.enabled) this.sendTelemetry();
    });
    c.on('offline', () => {
      this.uplink.detach();
      this.emit('offline');
    });
    c.on('waiting', () => this.emit('waiting', this.macAddress));
    c.on('provisioned', (credentials) => this.emit('provisioned', credentials));
    c.on('refused', (err) => this.emit('refused', err));
    c.on('message', (message, espId) => this.onMessage(message, espId));
  }

  private onMessage(message: InboundMessage, espId: string): void {
    if (message.kind === 'sales-ack') {
      this.uplink.ack(message.eventIds);
      this.cardList.acknowledge(message.eventIds);
      this.emit('acked', message.eventIds);
      this.reportDrained();
    } else if (message.kind === 'config') {
      this.applyConfig(espId, message.config);
    } else if (message.kind === 'cards') {
      // A full list no newer than the one held (the retained copy again) changes nothing.
      if (this.cardList.applyFull(message.list)) this.cardListApplied(espId);
    } else if (message.kind === 'cards-delta') {
      // A delta on another version is ignored: the server follows with the full list.
      if (this.cardList.applyDelta(message.delta)) this.cardListApplied(espId);
      else
        this.options.log?.(
          `${espId}: card list delta on ${message.delta.baseVersion} ignored (holding ${this.cardList.version})`,
        );
    } else if (message.kind === 'invalid') {
      this.options.log?.(`${espId}: ignored ${message.reason}`);
    }
  }

  /** Written to flash (memory here), then acknowledged with the version now held. */
  private cardListApplied(espId: string): void {
    const version = this.cardList.version;
    this.emit('cardList', version);
    this.connection.publish(buildCardsAckTopic(espId), JSON.stringify({ version })).catch(() => {
      // Lost with the connection: the next connection says the version held right after subscribing.
    });
  }

  /** The status said sales were queued and the last one is now acknowledged: say so (`queued: 0`). */
  private reportDrained(): void {
    if (this.reportedQueued === 0 || this.uplink.outbox.size > 0 || !this.online) return;
    this.connection.publishStatus().catch(() => undefined);
  }

  /** Back on the network after an outage, unless the machine is dark or cut off until told. */
  private comeBack(): void {
    if (!this.faults.has('dark') && !this.cutOffValue) this.connection.reopen();
  }

  private applyConfig(espId: string, config: ConfigPayload): void {
    const current = this.configValue?.version;
    // Versions only grow (docs/device-protocol.md, "Configuration"): an older one is a stale redelivery.
    if (current !== undefined && config.version < current) return;
    if (current === undefined || config.version > current) {
      this.configValue = config;
      this.tariffsValue = applyConfigTariffs(this.tariffsValue, config);
      this.emit('config', config);
    }
    // The same version again (the retained copy after a reconnect) is acked again: the ack may have been lost.
    this.connection.publish(buildConfigAckTopic(espId), JSON.stringify({ version: config.version })).catch(() => {
      // Lost with the connection; the retained config comes back on reconnect and is acked then.
    });
  }

  private applyFault(kind: FaultKind, on: boolean): void {
    if (kind === 'low-tank') this.health.supplyCut = on;
    else if (kind === 'tds-spike') this.health.membraneFailed = on;
    else if (kind === 'dark') {
      if (on) {
        this.scheduler.stop();
        this.connection.kill();
      } else {
        this.comeBack();
      }
    }
    if (on && this.faults.blocksSelling) this.scheduler.stop();
    // A machine not started yet starts selling with start(), not when a fault ends.
    if (!on && this.state !== 'idle') this.restartSelling();
    this.emit('fault', kind, on);
  }

  /** Sells again unless the caller paused selling, a fault stops it, or the machine stopped. */
  private restartSelling(): void {
    if (this.sellingPaused || this.faults.blocksSelling || this.state === 'stopped') return;
    if (!this.scheduler.running) this.scheduler.start();
  }

  /** One telemetry message while online (QoS 1, like every message of the protocol); dropped while offline. */
  private sendTelemetry(): void {
    if (!this.online || !this.espId) return;
    const reading = this.readTelemetry();
    this.connection.publish(buildTelemetryTopic(this.espId), JSON.stringify(reading)).then(
      () => {
        this.telemetrySent++;
        this.emit('telemetry', reading);
      },
      () => undefined, // Lost with the connection: the next reading says the same, fresher.
    );
  }

  private currentRate(): number {
    if (this.options.dayCurve === false) return this.rateValue;
    return this.rateValue * dayCurveFactor(localHour(this.now(), this.options.timeZone ?? DEFAULT_TIME_ZONE));
  }

  private waitUntil(event: 'online' | 'provisioned', ready: () => boolean, timeoutMs: number): Promise<void> {
    return waitForCondition(this, event, ready, timeoutMs, () => {
      const why = this.connection.lastError;
      return `${this.name}: not ${event} after ${timeoutMs} ms${why ? ` (${why})` : ''}`;
    });
  }
}
