import { z } from 'zod';
import { WATER_TYPES } from '../sale/sale.schema.js';
import type { Alarm } from '../alarm/alarm.schema.js';
import type { PaymentUpdatedEvent } from '../payment/payment.schema.js';

/** Socket.IO events (docs/live-events.md). Clients connect to the default namespace with `auth: {token}`. */
export const SOCKET_EVENTS = {
  sale: 'sale',
  summary: 'summary',
  machineStatus: 'machine.status',
  configApplied: 'config.applied',
  floatRequested: 'float.requested',
  floatUpdated: 'float.updated',
  alarmOpened: 'alarm.opened',
  alarmUpdated: 'alarm.updated',
  paymentUpdated: 'payment.updated',
  deviceAnnounced: 'device.announced',
} as const;

export const saleEventSchema = z.object({
  /** The stored sale's id: the activity feed merges live sales with /user/machines/recent-sales by it. */
  id: z.string().optional(),
  machineId: z.string(),
  kind: z.enum(['coin', 'card']),
  price: z.number(),
  volume: z.number(),
  waterType: z.enum(WATER_TYPES),
  cardId: z.string().optional(),
  time: z.string(),
});
export type SaleEvent = z.infer<typeof saleEventSchema>;

const figures = z.object({ dailyPriceCollected: z.number(), volumeSold: z.number() });
export const summaryEventSchema = z.object({
  machineId: z.string(),
  date: z.string(),
  coinBased: figures,
  cardBased: figures,
});
export type SummaryEvent = z.infer<typeof summaryEventSchema>;

export const machineStatusEventSchema = z.object({ machineId: z.string(), online: z.boolean(), lastSeen: z.string() });
export type MachineStatusEvent = z.infer<typeof machineStatusEventSchema>;

export const configAppliedEventSchema = z.object({ machineId: z.string(), version: z.number().int() });
export type ConfigAppliedEvent = z.infer<typeof configAppliedEventSchema>;

export const floatRequestedEventSchema = z.object({
  requestId: z.string(),
  attendantId: z.string(),
  attendantName: z.string(),
  requestedAmount: z.number(),
  requestedAt: z.string(),
});
export type FloatRequestedEvent = z.infer<typeof floatRequestedEventSchema>;

export const floatUpdatedEventSchema = z.object({
  requestId: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  approvedAmount: z.number().nullable(),
  approvedAt: z.string().nullable(),
});
export type FloatUpdatedEvent = z.infer<typeof floatUpdatedEventSchema>;

/** A MAC address joined the admins' list of machines waiting for an ESP ID (docs/live-events.md, "Events"). */
export const deviceAnnouncedEventSchema = z.object({ macAddress: z.string(), at: z.string() });
export type DeviceAnnouncedEvent = z.infer<typeof deviceAnnouncedEventSchema>;

export interface ServerToClientEvents {
  sale: (e: SaleEvent) => void;
  summary: (e: SummaryEvent) => void;
  'machine.status': (e: MachineStatusEvent) => void;
  'config.applied': (e: ConfigAppliedEvent) => void;
  'float.requested': (e: FloatRequestedEvent) => void;
  'float.updated': (e: FloatUpdatedEvent) => void;
  /** An alarm opened, to the machine's scope (docs/alarms.md). */
  'alarm.opened': (e: Alarm) => void;
  /** An alarm acknowledged, assigned, noted, escalated, reopened or cleared. */
  'alarm.updated': (e: Alarm) => void;
  /** A payment on a card changed state, to the sockets whose scope holds the card (docs/mobile-money.md). */
  'payment.updated': (e: PaymentUpdatedEvent) => void;
  /** A new MAC address announced itself, to admins only. */
  'device.announced': (e: DeviceAnnouncedEvent) => void;
}

/** Rooms: one per machine, one per user (float events), and `admin` for everything. */
export const machineRoom = (espId: string) => `machine:${espId}`;
export const userRoom = (userId: string) => `user:${userId}`;
export const ADMIN_ROOM = 'admin';
