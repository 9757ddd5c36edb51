import { Injectable } from '@nestjs/common';
import type { NotificationPreferences } from '@wv/contracts';
import { DataSource } from 'typeorm';

interface PreferencesRow {
  email: boolean;
  sms: boolean;
  minSeverity: NotificationPreferences['minSeverity'];
  quietFrom: string | null;
  quietTo: string | null;
}

const toPreferences = (r: PreferencesRow): NotificationPreferences => ({
  email: r.email,
  sms: r.sms,
  minSeverity: r.minSeverity,
  // `time` comes back as HH:MM:SS.
  quietHours: r.quietFrom && r.quietTo ? { from: r.quietFrom.slice(0, 5), to: r.quietTo.slice(0, 5) } : null,
});

/** Each user's notification preferences: one row once the user changed any, none before (the defaults). */
@Injectable()
export class NotificationPreferencesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(userId: string): Promise<NotificationPreferences | null> {
    const [row]: PreferencesRow[] = await this.dataSource.query(
      `SELECT email, sms, min_severity AS "minSeverity", quiet_from::text AS "quietFrom", quiet_to::text AS "quietTo"
       FROM notification_preferences WHERE user_id = $1`,
      [userId],
    );
    return row ? toPreferences(row) : null;
  }

  async save(userId: string, p: NotificationPreferences): Promise<NotificationPreferences> {
    const [row]: PreferencesRow[] = await this.dataSource.query(
      `INSERT INTO notification_preferences AS p (user_id, email, sms, min_severity, quiet_from, quiet_to, updated_at)
       VALUES ($1, $2, $3, $4, $5::time, $6::time, now())
       ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, sms = EXCLUDED.sms,
         min_severity = EXCLUDED.min_severity, quiet_from = EXCLUDED.quiet_from, quiet_to = EXCLUDED.quiet_to,
         updated_at = now()
       RETURNING email, sms, min_severity AS "minSeverity", quiet_from::text AS "quietFrom", quiet_to::text AS "quietTo"`,
      [userId, p.email, p.sms, p.minSeverity, p.quietHours?.from ?? null, p.quietHours?.to ?? null],
    );
    return toPreferences(row!);
  }
}
