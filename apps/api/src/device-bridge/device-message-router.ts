import { Injectable } from '@nestjs/common';
import type { DeviceMessage, SaleEnvelope } from '@wv/broker';
import { configAckPayloadSchema, statusPayloadSchema } from '@wv/contracts';
import { CONNECTION_WORK_LINGER_MS, KeyedBatch } from '../common/keyed-batch.js';
import { CardListDeviceService } from '../card-list/card-list-device.service.js';
import { MachineConfigService } from '../machine-config/machine-config.service.js';
import { SaleIngestQueue } from '../sale/sale-ingest.queue.js';
import { payloadToText } from '../sale/sale-ingest.types.js';
import { SequenceRecords } from '../sequence/sequence-records.js';
import { TelemetryQueue } from '../telemetry/telemetry.queue.js';
import { MachineStatusService } from './machine-status.service.js';
import { ProvisioningService } from './provisioning.service.js';

/**
 * What the program does with a device publish, whichever broker received it: the embedded Aedes broker or an
 * external one (docs/external-mqtt.md). Sales are made durable in Redis in batches; the other topics go to
 * their services.
 */
@Injectable()
export class DeviceMessageRouter {
  constructor(
    private readonly queue: SaleIngestQueue,
    private readonly status: MachineStatusService,
    private readonly machineConfig: MachineConfigService,
    private readonly sequenceRecords: SequenceRecords,
    private readonly cardLists: CardListDeviceService,
    private readonly telemetry: TelemetryQueue,
    private readonly provisioning: ProvisioningService,
  ) {}

  /** Durable in Redis before the PUBACK: one addBulk for the whole micro-batch. */
  persistSales(batch: SaleEnvelope[]): Promise<void> {
    return this.queue.enqueue(
      batch.map((s) => ({
        espId: s.espId,
        topic: s.topic,
        payload: payloadToText(s.payload),
        receivedAt: s.receivedAt.toISOString(),
        source: 'mqtt' as const,
      })),
    );
  }

  /** `via`: the embedded broker process that received it (machine status is kept per broker process). */
  async route(message: DeviceMessage, via?: string): Promise<void> {
    if (message.kind === 'hello') return this.provisioning.onHello(message);
    // Parsed and stored by the workers (docs/alarms.md, "Telemetry"); the broker only batches it.
    if (message.kind === 'telemetry') {
      return this.telemetry.add({
        espId: message.espId,
        payload: payloadToText(message.payload),
        receivedAt: message.receivedAt.toISOString(),
      });
    }
    const json = safeJson(message.payload);
    if (message.kind === 'status') {
      const status = statusPayloadSchema.safeParse(json);
      if (status.success) {
        await this.status.set(message.espId, status.data.online, { firmware: status.data.firmware, via });
      }
      // The sales still in the machine's flash, shown by GET /machines/{espId}/sync.
      if (status.success && status.data.queued !== undefined) {
        await this.sequenceRecords.setQueued(message.espId, status.data.queued);
      }
      return;
    }
    if (message.kind === 'config-ack') {
      const ack = configAckPayloadSchema.safeParse(json);
      if (ack.success) await this.machineConfig.applyAck(message.espId, ack.data.version);
    }
    if (message.kind === 'cards-ack') return this.cardLists.onAck(message.espId, json);
  }

  /** A machine (re)connected: what that sets off, for all machines that connected within CONNECTION_WORK_LINGER_MS. */
  machineConnected(espId: string): Promise<void> {
    return this.connectEffects.add(espId, true).then(() => undefined);
  }

  private readonly connectEffects = new KeyedBatch<string, true>(
    async (batch) => {
      const espIds = [...batch.keys()];
      await this.machineConfig.republishMany(espIds);
      // A machine that missed card list versions while away gets the full list (docs/device-protocol.md, "Card lists").
      await this.cardLists.onMachinesConnected(espIds);
      await this.provisioning.onMachinesConnected(espIds);
    },
    { lingerMs: CONNECTION_WORK_LINGER_MS, maxBatch: 1000 },
  );

  /** The broker closed: nothing more is set off by connections; what devices reported is written. */
  async close(): Promise<void> {
    this.connectEffects.close();
    await Promise.all([this.sequenceRecords.drain(), this.cardLists.drain()]);
  }
}

function safeJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}
