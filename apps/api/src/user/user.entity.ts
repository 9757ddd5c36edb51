import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Role, UserLanguage } from '@wv/contracts';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  role!: Role;

  @Column({ name: 'first_name', type: 'text' })
  firstName!: string;

  @Column({ name: 'last_name', type: 'text' })
  lastName!: string;

  /** Unique among active users, case-insensitive. */
  @Column({ type: 'text' })
  username!: string;

  /** For attendants: the company they work for, which several attendants may share. */
  @Column({ name: 'company_name', type: 'text', nullable: true })
  companyName!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'phone_number', type: 'text' })
  phoneNumber!: string;

  @Column({ type: 'text' })
  location!: string;

  /** Every email and SMS to this user is written in it (docs/alarms.md, "Languages"). */
  @Column({ type: 'text', default: 'en' })
  language!: UserLanguage;

  @Column({ name: 'password_hash', type: 'text', select: false })
  passwordHash!: string;

  /** For attendants: the manager who created them (their tenant). */
  @Column({ name: 'manager_id', type: 'uuid', nullable: true })
  managerId!: string | null;

  /** Tokens issued before this instant are refused (password change, removal). */
  @Column({ name: 'tokens_valid_after', type: 'timestamptz' })
  tokensValidAfter!: Date;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;

  /** Set by an admin: the account cannot sign in until reactivated; its history stays. */
  @Column({ name: 'deactivated_at', type: 'timestamptz', nullable: true })
  deactivatedAt!: Date | null;
}
