import { Injectable } from '@nestjs/common';
import { ALARM_SEVERITY, type Alarm, type AlarmKind } from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { AlarmNotice } from '../alarm-notice/alarm-notifier.port.js';
import { DomainEvents } from '../events/domain-events.js';
import { AlarmNotices } from './alarm-notices.js';
import { AlarmRepository } from './alarm.repository.js';
import { AlarmChanges, FLAP_WINDOW_MS, type AlarmOpening } from './alarm.types.js';

/**
 * Opens, reopens, clears and escalates alarms (docs/alarms.md, "How alarms open and clear"). Every
 * change happens in the caller's transaction under a per-machine-and-kind advisory lock, and the
 * partial unique index (one active alarm per machine and kind) backs it: however many workers
 * evaluate the same rule at once, an alarm opens once and its messages are queued once. The changes
 * are announced live only after the transaction commits (`publish`).
 */
@Injectable()
export class AlarmEngine {
  constructor(
    private readonly dataSource: DataSource,
    private readonly alarms: AlarmRepository,
    private readonly notices: AlarmNotices,
    private readonly events: DomainEvents,
  ) {}

  /** Opens the alarm unless one is active or the machine is in maintenance; an offline alarm within the flap window reopens. */
  async open(m: EntityManager, changes: AlarmChanges, o: AlarmOpening): Promise<Alarm | null> {
    await this.alarms.lock(m, o.espId, o.kind);
    if (await this.alarms.findActive(m, o.espId, o.kind)) return null;
    const maintenanceUntil = await this.alarms.maintenanceUntil(m, o.espId);
    if (maintenanceUntil && maintenanceUntil.getTime() > o.now.getTime()) return null;
    if (o.kind === 'offline') {
      const recent = await this.alarms.findAutoClearedSince(
        m,
        o.espId,
        o.kind,
        new Date(o.now.getTime() - FLAP_WINDOW_MS),
      );
      if (recent) {
        // A flapping machine: the same alarm again, and no new message (its opening already sent one).
        const reopened = await this.alarms.reopen(m, recent.id, o.details, o.now);
        if (reopened) changes.updated.push(reopened);
        return reopened;
      }
    }
    const opened = await this.alarms.insert(m, {
      espId: o.espId,
      kind: o.kind,
      severity: ALARM_SEVERITY[o.kind],
      details: o.details,
      openedAt: o.now,
    });
    if (!opened) return null;
    await this.notices.enqueue(m, [await this.notice(m, opened, 'opened')]);
    changes.opened.push(opened);
    return opened;
  }

  /**
   * `open` for many machines and one kind in a few statements (the sweep: a fleet-wide outage opens
   * thousands of offline alarms at once). The same rules, in the same transaction-scoped locks taken in
   * ESP ID order; returns how many alarms opened or reopened.
   */
  async openMany(
    m: EntityManager,
    changes: AlarmChanges,
    kind: AlarmKind,
    openings: { espId: string; details: Record<string, unknown> }[],
    now: Date,
  ): Promise<number> {
    const byMachine = new Map(openings.map((o) => [o.espId, o.details]));
    const espIds = [...byMachine.keys()].sort((a, b) => a.localeCompare(b));
    if (espIds.length === 0) return 0;
    await this.alarms.lockMany(m, espIds, kind);
    const active = await this.alarms.activeKinds(m, espIds);
    const resting = await this.alarms.inMaintenance(m, espIds, now);
    let due = espIds.filter((id) => !active.get(id)?.has(kind) && !resting.has(id));
    let count = 0;
    if (kind === 'offline' && due.length > 0) {
      // A flapping machine: the same alarm again, and no new message (its opening already sent one).
      const recent = await this.alarms.findAutoClearedSinceMany(m, due, kind, new Date(now.getTime() - FLAP_WINDOW_MS));
      for (const [espId, alarm] of recent) {
        const reopened = await this.alarms.reopen(m, alarm.id, byMachine.get(espId)!, now);
        if (reopened) changes.updated.push(reopened);
        if (reopened) count++;
      }
      due = due.filter((id) => !recent.has(id));
    }
    const opened = await this.alarms.insertMany(
      m,
      due.map((espId) => ({
        espId,
        kind,
        severity: ALARM_SEVERITY[kind],
        details: byMachine.get(espId)!,
        openedAt: now,
      })),
    );
    if (opened.length === 0) return count;
    const contacts = await this.alarms.contacts(
      m,
      opened.map((a) => a.machineId),
    );
    await this.notices.enqueue(
      m,
      opened.map((a) => this.toNotice(a, 'opened', contacts.get(a.machineId))),
    );
    changes.opened.push(...opened);
    return count + opened.length;
  }

  /** Clears the active alarm of this kind by itself (`clearedBy: "auto"`), if there is one. */
  async clear(m: EntityManager, changes: AlarmChanges, espId: string, kind: AlarmKind, now: Date): Promise<void> {
    const cleared = await this.alarms.clearActive(m, espId, kind, now, 'auto');
    if (cleared) changes.updated.push(cleared);
  }

  /** Escalates every due alarm once (docs/alarms.md, "Escalation"); returns how many. */
  async escalate(now: Date, afterMinutes: number, batch = 500): Promise<number> {
    let total = 0;
    for (;;) {
      const changes = new AlarmChanges();
      const count = await this.dataSource.transaction(async (m) => {
        const due = await this.alarms.escalateDue(m, new Date(now.getTime() - afterMinutes * 60_000), now, batch);
        const contacts = await this.alarms.contacts(m, [...new Set(due.map((a) => a.machineId))]);
        await this.notices.enqueue(
          m,
          due.map((a) => this.toNotice(a, 'escalated', contacts.get(a.machineId))),
        );
        changes.updated.push(...due);
        return due.length;
      });
      this.publish(changes);
      total += count;
      if (count < batch) return total;
    }
  }

  /** Runs `work` in a transaction of its own and announces its changes after the commit. */
  async run<T>(work: (m: EntityManager, changes: AlarmChanges) => Promise<T>): Promise<T> {
    const changes = new AlarmChanges();
    const result = await this.dataSource.transaction((m) => work(m, changes));
    this.publish(changes);
    return result;
  }

  publish(changes: AlarmChanges): void {
    for (const alarm of changes.opened) this.events.emit('alarm.opened', { alarm });
    for (const alarm of changes.updated) this.events.emit('alarm.updated', { alarm });
  }

  private async notice(m: EntityManager, alarm: Alarm, event: AlarmNotice['event']): Promise<AlarmNotice> {
    const contacts = await this.alarms.contacts(m, [alarm.machineId]);
    return this.toNotice(alarm, event, contacts.get(alarm.machineId));
  }

  private toNotice(
    alarm: Alarm,
    event: AlarmNotice['event'],
    c: { location: string | null; ownerId: string | null; attendantId: string | null } | undefined,
  ): AlarmNotice {
    return {
      event,
      alarmId: alarm.id,
      espId: alarm.machineId,
      kind: alarm.kind,
      severity: alarm.severity,
      openedAt: new Date(alarm.openedAt),
      details: alarm.details,
      location: c?.location ?? null,
      ownerId: c?.ownerId ?? null,
      attendantId: c?.attendantId ?? null,
    };
  }
}
