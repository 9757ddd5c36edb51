import { Inject, Injectable } from '@nestjs/common';
import type { AuditQuery, AuditRow } from '@wv/contracts';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { AuditRepository, type AuditBound } from './audit.repository.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** GET /admin/audit: who changed what and when, newest first. */
@Injectable()
export class AuditService {
  constructor(
    private readonly audit: AuditRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  list(query: AuditQuery): Promise<{ data: AuditRow[]; total: number }> {
    return this.audit.list({
      actorId: query.actorId,
      entity: query.entity,
      from: bound(query.from),
      to: bound(query.to),
      page: query.page,
      limit: query.limit,
      timezone: this.config.timezone,
    });
  }
}

/** `from`/`to` as a date are business days in APP_TIMEZONE (docs/operations.md, "Configuration"), both inclusive. */
function bound(value: string | undefined): AuditBound | undefined {
  if (!value) return undefined;
  return DAY.test(value) ? { date: value } : { instant: value };
}
