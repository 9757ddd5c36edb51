import type { AlarmKind } from '@wv/contracts';
import type { HealthRow, TelemetryRow } from '../telemetry/telemetry.types.js';
import {
  COIN_BOX_FULL_PCT,
  HIGH_TEMPERATURE_READINGS,
  LOW_TANK_HYSTERESIS_PCT,
  type MachineAlarmSettings,
} from './alarm.types.js';

export type Verdict = { action: 'open'; details: Record<string, unknown> } | { action: 'clear' };

/**
 * The telemetry rules (docs/alarms.md, "The alarms"): applies a machine's new readings, oldest first,
 * to its latest values and returns the last verdict of each kind the readings spoke about. A reading
 * older than the newest one already applied is stored but decides nothing. A field absent from a
 * reading says nothing about its kind.
 */
export function applyReadings(
  health: HealthRow,
  readings: TelemetryRow[],
  s: MachineAlarmSettings,
): Map<AlarmKind, Verdict> {
  const verdicts = new Map<AlarmKind, Verdict>();
  const ordered = [...readings].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const r of ordered) {
    if (health.at && r.at.getTime() < health.at.getTime()) continue;
    health.at = r.at;
    const at = r.at.toISOString();
    if (r.tankLevelPct !== undefined) {
      health.tankLevelPct = r.tankLevelPct;
      if (r.tankLevelPct < s.lowTankPct) {
        verdicts.set('low_tank', {
          action: 'open',
          details: { tankLevelPct: r.tankLevelPct, lowTankPct: s.lowTankPct, at },
        });
      } else if (r.tankLevelPct >= s.lowTankPct + LOW_TANK_HYSTERESIS_PCT) {
        verdicts.set('low_tank', { action: 'clear' });
      }
      // Between the threshold and the hysteresis a reading neither opens nor clears.
    }
    if (r.tdsPpm !== undefined) {
      health.tdsPpm = r.tdsPpm;
      verdicts.set(
        'water_quality',
        r.tdsPpm > s.maxTdsPpm
          ? { action: 'open', details: { tdsPpm: r.tdsPpm, maxTdsPpm: s.maxTdsPpm, at } }
          : { action: 'clear' },
      );
    }
    if (r.coldWaterTempC !== undefined) {
      health.coldWaterTempC = r.coldWaterTempC;
      if (r.coldWaterTempC > s.maxColdWaterTempC) {
        health.tempHighStreak += 1;
        if (health.tempHighStreak >= HIGH_TEMPERATURE_READINGS) {
          verdicts.set('water_temperature', {
            action: 'open',
            details: {
              coldWaterTempC: r.coldWaterTempC,
              maxColdWaterTempC: s.maxColdWaterTempC,
              readings: health.tempHighStreak,
              at,
            },
          });
        }
      } else {
        health.tempHighStreak = 0;
        verdicts.set('water_temperature', { action: 'clear' });
      }
    }
    if (r.coinBoxPct !== undefined) {
      health.coinBoxPct = r.coinBoxPct;
      verdicts.set(
        'coin_box_full',
        r.coinBoxPct >= COIN_BOX_FULL_PCT
          ? { action: 'open', details: { coinBoxPct: r.coinBoxPct, at } }
          : { action: 'clear' },
      );
    }
    if (r.errorCode !== undefined) {
      health.errorCode = r.errorCode;
      verdicts.set(
        'device_error',
        r.errorCode !== null ? { action: 'open', details: { errorCode: r.errorCode, at } } : { action: 'clear' },
      );
    }
  }
  return verdicts;
}
