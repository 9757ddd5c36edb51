import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'mac_announcements' })
export class MacAnnouncementEntity {
  /** `AA:BB:CC:DD:EE:FF`, as the REST API shows it. */
  @PrimaryColumn({ name: 'mac_address', type: 'text' })
  macAddress!: string;

  @Column({ type: 'text', nullable: true })
  firmware!: string | null;

  /** The provisioning password pinned at the first MQTT connection of this MAC (hashed). */
  @Column({ name: 'provision_secret_hash', type: 'text', nullable: true, select: false })
  provisionSecretHash!: string | null;

  @Column({ name: 'first_seen_at', type: 'timestamptz', default: () => 'now()' })
  firstSeenAt!: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz', default: () => 'now()' })
  lastSeenAt!: Date;

  @Column({ name: 'assigned_esp_id', type: 'text', nullable: true })
  assignedEspId!: string | null;

  /**
   * `mqtt`: a hello from the client holding the pinned secret; `rest`: POST /devices/announce (sticks,
   * and then the key reaches the machine only through the admin); null: a provisioning connect without
   * a hello, which pins the secret but is not listed for the admin.
   */
  @Column({ name: 'announced_via', type: 'text', nullable: true })
  announcedVia!: AnnouncedVia | null;

  /** The device key of an assignment awaiting MQTT delivery, sealed (see PendingKeySealer). */
  @Column({ name: 'pending_device_key', type: 'text', nullable: true, select: false })
  pendingDeviceKey!: string | null;
}

export type AnnouncedVia = 'mqtt' | 'rest';
