import { Injectable } from '@nestjs/common';
import type { UserLanguage } from '@wv/contracts';
import { DataSource, EntityManager, IsNull, Repository } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { scopeAttendants } from '../common/scope.js';
import { UserEntity } from './user.entity.js';

export type NewUser = Omit<
  UserEntity,
  'createdAt' | 'deletedAt' | 'deactivatedAt' | 'tokensValidAfter' | 'companyName' | 'language'
> & {
  companyName?: string | null;
};

/** The only place that builds queries on users. */
@Injectable()
export class UserRepository {
  private readonly repo: Repository<UserEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.repo = dataSource.getRepository(UserEntity);
  }

  findActiveForSession(id: string): Promise<Pick<UserEntity, 'id' | 'role' | 'tokensValidAfter'> | null> {
    return (
      this.repo
        .createQueryBuilder('u')
        .select(['u.id', 'u.role', 'u.tokensValidAfter'])
        // A deactivated account's tokens stop at once (docs/security.md, "Deactivated accounts").
        .where('u.id = :id AND u.deleted_at IS NULL AND u.deactivated_at IS NULL', { id })
        .getOne()
    );
  }

  /** Login: by lower-cased email or by E.164 phone; includes the password hash. */
  findForLogin(by: { email: string } | { phone: string }): Promise<UserEntity | null> {
    const qb = this.repo.createQueryBuilder('u').addSelect('u.passwordHash').where('u.deleted_at IS NULL');
    if ('email' in by) qb.andWhere('lower(u.email) = lower(:email)', { email: by.email });
    else qb.andWhere('u.phone_number = :phone', { phone: by.phone });
    return qb.getOne();
  }

  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<UserEntity | null> {
    return manager
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('u.id = :id', { id })
      .getOne();
  }

  findActiveById(id: string): Promise<UserEntity | null> {
    return this.repo.createQueryBuilder('u').where('u.id = :id AND u.deleted_at IS NULL', { id }).getOne();
  }

  /**
   * Which active users already hold the candidate's email or phone number (the sign-in identifiers) or
   * username (case-insensitive): each must be unique among active users.
   */
  async findConflicts(
    candidate: { id: string; email: string | null; phoneNumber: string; username: string },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<UserEntity[]> {
    return manager
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .where('u.deleted_at IS NULL AND u.id <> :id', { id: candidate.id })
      .andWhere(
        '(u.phone_number = :phone OR lower(u.username) = lower(:username) OR (:email::text IS NOT NULL AND lower(u.email) = lower(:email)))',
        { phone: candidate.phoneNumber, username: candidate.username, email: candidate.email },
      )
      .getMany();
  }

  async insert(user: NewUser, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.getRepository(UserEntity).insert(user);
  }

  countAdmins(): Promise<number> {
    return this.repo.count({ where: { role: 'admin', deletedAt: IsNull() } });
  }

  listAll(): Promise<UserEntity[]> {
    return this.repo.createQueryBuilder('u').where('u.deleted_at IS NULL').orderBy('u.created_at', 'ASC').getMany();
  }

  listAttendants(actor: Actor): Promise<UserEntity[]> {
    const qb = this.repo.createQueryBuilder('u').where('u.deleted_at IS NULL');
    return scopeAttendants(qb, actor, 'u').orderBy('u.created_at', 'ASC').getMany();
  }

  findAttendant(
    actor: Actor,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<UserEntity | null> {
    const qb = manager
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .where('u.deleted_at IS NULL AND u.id = :userId', { userId });
    return scopeAttendants(qb, actor, 'u').setLock('pessimistic_write').getOne();
  }

  /** The language of the user's emails and SMS and of the web app once they sign in. */
  async setLanguage(userId: string, language: UserLanguage): Promise<void> {
    await this.repo.update({ id: userId }, { language });
  }

  /** A new password; tokens issued before `validAfter` stop working. */
  async setPassword(userId: string, passwordHash: string, validAfter: Date): Promise<void> {
    await this.repo.update({ id: userId }, { passwordHash, tokensValidAfter: validAfter });
  }

  /**
   * Deactivation (a date) or reactivation (null). Deactivating also moves tokens_valid_after to now, so
   * that a later reactivation does not bring the old tokens back.
   */
  async setDeactivated(userId: string, deactivated: boolean, manager: EntityManager): Promise<void> {
    const qb = manager.getRepository(UserEntity).createQueryBuilder().update();
    const changes = deactivated
      ? { deactivatedAt: () => 'now()', tokensValidAfter: () => 'now()' }
      : { deactivatedAt: null };
    await qb.set(changes).where('id = :userId', { userId }).execute();
  }

  /** Soft delete: history stays; existing tokens die because tokens_valid_after moves to now. */
  async markDeleted(userId: string, manager: EntityManager): Promise<void> {
    await manager
      .getRepository(UserEntity)
      .createQueryBuilder()
      .update()
      .set({ deletedAt: () => 'now()', tokensValidAfter: () => 'now()' })
      .where('id = :userId', { userId })
      .execute();
  }
}
