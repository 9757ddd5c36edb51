import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DeviceRepository } from './device.repository.js';
import { UNASSIGNED_MAC_TTL_DAYS } from './mac-announcement.service.js';

const PURGE_EVERY_MS = 3600 * 1000;
const PURGE_BATCH = 1000;

/**
 * Runs in the worker role: every hour, deletes MAC addresses that were never given an ESP ID and
 * were not seen for UNASSIGNED_MAC_TTL_DAYS (announced once by anyone, or a machine long gone), in
 * small batches. With the cap on unassigned rows this bounds what anonymous announcements leave behind.
 */
@Injectable()
export class MacAnnouncementPurger implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('MacAnnouncements');
  private timer?: NodeJS.Timeout;

  constructor(private readonly devices: DeviceRepository) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.purge().catch((error: Error) => this.logger.warn(`Purge of stale MAC addresses failed: ${error.message}`));
    }, PURGE_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Deletes every unassigned MAC last seen before the retention at `now`; returns how many. */
  async purge(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - UNASSIGNED_MAC_TTL_DAYS * 24 * 3600 * 1000);
    let total = 0;
    for (;;) {
      const deleted = await this.devices.purgeUnassignedMacs(cutoff, PURGE_BATCH);
      total += deleted;
      if (deleted < PURGE_BATCH) break;
    }
    if (total > 0)
      this.logger.log(`Deleted ${total} unassigned MAC address(es) not seen since ${cutoff.toISOString()}`);
    return total;
  }
}
