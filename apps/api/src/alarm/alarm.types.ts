import type { Alarm, AlarmKind, AlarmSettings } from '@wv/contracts';

/** An offline alarm cleared by itself less than this long ago is reopened, not opened anew (docs/alarms.md, "Flapping"). */
export const FLAP_WINDOW_MS = 15 * 60 * 1000;
/** short_dispense: this many short sales within SHORT_DISPENSE_WINDOW_MS open it; a window without one clears it. */
export const SHORT_DISPENSE_COUNT = 3;
export const SHORT_DISPENSE_WINDOW_MS = 60 * 60 * 1000;
/** A sale is short when its flow meter measured less than this share of its volume. */
export const SHORT_DISPENSE_RATIO = 0.9;
/** water_temperature opens after this many readings in a row above the maximum. */
export const HIGH_TEMPERATURE_READINGS = 3;
export const COIN_BOX_FULL_PCT = 90;
/** low_tank clears this many points above lowTankPct, so that a level hovering at the threshold does not flap. */
export const LOW_TANK_HYSTERESIS_PCT = 5;

/** The alarms that changed in one transaction, announced live after it commits. */
export class AlarmChanges {
  readonly opened: Alarm[] = [];
  readonly updated: Alarm[] = [];
}

/** What opening an alarm needs. */
export interface AlarmOpening {
  espId: string;
  kind: AlarmKind;
  details: Record<string, unknown>;
  now: Date;
}

/** A machine's settings as the rules read them, with its ESP ID. */
export type MachineAlarmSettings = AlarmSettings & { espId: string };
