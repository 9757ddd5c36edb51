import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'devices' })
export class DeviceEntity {
  @PrimaryColumn({ name: 'esp_id', type: 'text' })
  espId!: string;

  @Column({ name: 'mac_address', type: 'text', nullable: true, unique: true })
  macAddress!: string | null;

  @Column({ name: 'owner_id', type: 'uuid', nullable: true })
  ownerId!: string | null;

  @Column({ name: 'attendant_id', type: 'uuid', nullable: true })
  attendantId!: string | null;

  @Column({ type: 'text', nullable: true })
  location!: string | null;

  /** SHA-256 of the device key; the key itself is shown once and never stored. */
  @Column({ name: 'key_hash', type: 'text', nullable: true, select: false })
  keyHash!: string | null;

  @Column({ name: 'key_rotated_at', type: 'timestamptz', nullable: true })
  keyRotatedAt!: Date | null;

  @Column({ type: 'boolean', default: false })
  online!: boolean;

  @Column({ name: 'last_seen_at', type: 'timestamptz', nullable: true })
  lastSeenAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  firmware!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
