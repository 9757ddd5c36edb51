import { describe, expect, it } from '@jest/globals';
import { DEFAULT_ALARM_SETTINGS } from '@wv/contracts';
import type { HealthRow, TelemetryRow } from '../telemetry/telemetry.types.js';
import { applyReadings } from './telemetry-rules.js';

const settings = { ...DEFAULT_ALARM_SETTINGS, espId: 'ESP-1' };

function health(overrides: Partial<HealthRow> = {}): HealthRow {
  return {
    espId: 'ESP-1',
    at: null,
    tankLevelPct: null,
    tdsPpm: null,
    coldWaterTempC: null,
    coinBoxPct: null,
    errorCode: null,
    lastSaleAt: null,
    onlineSince: null,
    tempHighStreak: 0,
    shortDispenseTimes: [],
    ...overrides,
  };
}

let clock = Date.UTC(2026, 10, 25, 8);
const reading = (fields: Omit<TelemetryRow, 'espId' | 'at'>, at = new Date((clock += 60_000))): TelemetryRow => ({
  espId: 'ESP-1',
  at,
  ...fields,
});

describe('applyReadings', () => {
  it('lets the last reading of a batch decide, and leaves a kind nobody spoke about alone', () => {
    const h = health();
    const verdicts = applyReadings(h, [reading({ tdsPpm: 900 }), reading({ tdsPpm: 100 })], settings);
    expect([...verdicts]).toEqual([['water_quality', { action: 'clear' }]]);
    expect(h.tdsPpm).toBe(100);
  });

  it('neither opens nor clears low_tank between the threshold and 5 points above it', () => {
    expect([...applyReadings(health(), [reading({ tankLevelPct: 17 })], settings)]).toEqual([]);
    expect(applyReadings(health(), [reading({ tankLevelPct: 14.99 })], settings).get('low_tank')?.action).toBe('open');
    expect(applyReadings(health(), [reading({ tankLevelPct: 20 })], settings).get('low_tank')?.action).toBe('clear');
  });

  it('counts high temperatures in a row across batches and resets the run at a normal reading', () => {
    const h = health();
    expect(applyReadings(h, [reading({ coldWaterTempC: 13 }), reading({ coldWaterTempC: 13 })], settings).size).toBe(0);
    expect(h.tempHighStreak).toBe(2);
    expect(applyReadings(h, [reading({ coldWaterTempC: 12.5 })], settings).get('water_temperature')?.action).toBe(
      'open',
    );
    applyReadings(h, [reading({ coldWaterTempC: 12 })], settings);
    expect(h.tempHighStreak).toBe(0);
  });

  it('skips readings older than the newest applied, and applies a batch oldest first', () => {
    const h = health({ at: new Date(clock), tankLevelPct: 60 });
    const old = reading({ tankLevelPct: 1 }, new Date(clock - 3_600_000));
    expect(applyReadings(h, [old], settings).size).toBe(0);
    expect(h.tankLevelPct).toBe(60);
    const later = reading({ errorCode: null });
    const earlier = reading({ errorCode: 'E5' }, new Date(later.at.getTime() - 1000));
    expect(applyReadings(h, [later, earlier], settings).get('device_error')).toEqual({ action: 'clear' });
    expect(h.errorCode).toBeNull();
  });
});
