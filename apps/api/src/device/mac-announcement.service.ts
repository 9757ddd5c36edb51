import { Inject, Injectable, Logger } from '@nestjs/common';
import { ErrorCode, macToTopicId, type AnnounceRequest } from '@wv/contracts';
import { RequestRateLimiter } from '../rate-limit/request-rate-limiter.js';
import { AppError } from '../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DomainEvents } from '../events/domain-events.js';
import { DeviceRepository } from './device.repository.js';

/**
 * Unassigned MAC addresses kept at most. Announcing needs no credentials, so without a cap anyone
 * could grow the admin's list and its table without bound; past it a new MAC is refused (REST 503,
 * MQTT CONNACK 3) and logged, while known MACs still announce. Far above any real backlog of machines
 * waiting for an ID, and cheap to count (a partial index holds only unassigned rows).
 */
export const UNASSIGNED_MAC_CAP = 10_000;

/** An unassigned MAC not seen for this long is deleted (MacAnnouncementPurger); a live machine re-announces. */
export const UNASSIGNED_MAC_TTL_DAYS = 30;

/** Hellos per minute one MAC's provisioning connection gets through; a machine says hello once per connect. */
const HELLOS_PER_MINUTE = 10;

/**
 * A MAC is announced live to admins at most once in this time (docs/live-events.md, "Events"): the event
 * only says that the list changed, and a race of two first announces must not send it twice.
 */
export const ANNOUNCED_EVENT_INTERVAL_MS = 60_000;

/**
 * Announcements of MAC addresses not yet given an ESP ID, over REST (POST /devices/announce) and
 * MQTT (a provisioning client's hello, or its first connect), with the limits that keep anonymous
 * callers from flooding the admin's list (docs/security.md).
 */
@Injectable()
export class MacAnnouncementService {
  private readonly logger = new Logger('MacAnnouncements');
  /** When each recently announced MAC was last sent live. */
  private readonly lastSent = new Map<string, number>();

  constructor(
    private readonly devices: DeviceRepository,
    private readonly limiter: RequestRateLimiter,
    private readonly events: DomainEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** POST /devices/announce: 429 past this address's share, 503 when the list is full. */
  async announceOverRest(input: AnnounceRequest, address: string | undefined): Promise<void> {
    await this.limiter.consume(addressBucket(address), this.perAddressPerMinute());
    const outcome = await this.devices.announce(input.macAddress, input.firmware ?? null, 'rest', UNASSIGNED_MAC_CAP);
    if (outcome === 'refused') {
      this.logger.warn(`Refused the announce of ${input.macAddress} from ${address}: the MAC list is full`);
      throw new AppError(ErrorCode.MacListFull);
    }
    if (outcome === 'listed') this.sendListed(input.macAddress);
  }

  /** A hello, which only the provisioning client holding the MAC's pinned secret can publish. */
  async announceOverMqtt(macAddress: string, firmware: string | null): Promise<void> {
    if (!(await this.admit(`hello:mac:${macToTopicId(macAddress)}`, HELLOS_PER_MINUTE))) {
      this.logger.warn(`Ignored a hello from ${macAddress}: more than ${HELLOS_PER_MINUTE} in a minute`);
      return;
    }
    const outcome = await this.devices.announce(macAddress, firmware, 'mqtt', UNASSIGNED_MAC_CAP);
    if (outcome === 'refused') this.logger.warn(`Ignored a hello from ${macAddress}: the MAC list is full`);
    if (outcome === 'listed') this.sendListed(macAddress);
  }

  /** A provisioning connect about to add a MAC never seen: counted with its address's REST announces. */
  admitNewMac(address: string | undefined): Promise<boolean> {
    return this.admit(addressBucket(address), this.perAddressPerMinute());
  }

  /**
   * New announcements per minute per client address: a fifth of the general per-address budget
   * (HTTP_RATE_LIMIT), since a machine announces once per boot; deployments that provision whole
   * fleets from one address raise HTTP_RATE_LIMIT.
   */
  private perAddressPerMinute(): number {
    return Math.max(1, Math.floor(this.config.httpRateLimit / 5));
  }

  /**
   * Tells admins' screens that the MAC list grew. Only a MAC that joined the list is sent, so a flood of
   * re-announces sends nothing; the per-MAC interval also covers two first announces racing.
   */
  private sendListed(macAddress: string): void {
    const now = Date.now();
    for (const [mac, sentAt] of this.lastSent) {
      if (now - sentAt >= ANNOUNCED_EVENT_INTERVAL_MS) this.lastSent.delete(mac);
    }
    if (this.lastSent.has(macAddress)) return;
    this.lastSent.set(macAddress, now);
    this.events.emit('device.announced', { macAddress, at: new Date(now).toISOString() });
  }

  private async admit(bucket: string, limit: number): Promise<boolean> {
    try {
      await this.limiter.consume(bucket, limit);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.RateLimited) return false;
      throw error;
    }
  }
}

/** REST (`::ffff:` mapped IPv4 on a dual-stack socket) and MQTT count one address once. */
function addressBucket(address: string | undefined): string {
  return `announce:ip:${(address ?? 'unknown').replace(/^::ffff:/, '')}`;
}
