import { Logger } from '@nestjs/common';
import type { AlarmSettingsUpdate } from '@wv/contracts';
import { describeFaultStep, FAULTS, type FaultStep } from '@wv/simulator';
import { DEMO_ACCOUNTS, demoEspId } from './demo-accounts.js';
import { demoCall, demoLogin } from './demo-api.js';

/**
 * The demo's scripted faults (apps/simulator, "Faults"): five machines, one fault kind each, starting
 * within the first two minutes and coming back on a cycle, so that alarms open and clear by
 * themselves while someone watches (docs/alarms.md). Every fault ends by itself; `DEMO_FAULTS=off`
 * turns them off.
 */
export const DEMO_FAULT_STEPS: readonly FaultStep[] = [
  // The supply fails; the tank drains under 15 % (low_tank), then refills past 20 % and the alarm clears.
  { kind: 'low-tank', machine: demoEspId(2), afterSeconds: 60, forSeconds: 6 * 60, everySeconds: 25 * 60 },
  // The membrane fails: TDS over 500 ppm (water_quality, critical) for three minutes.
  { kind: 'tds-spike', machine: demoEspId(4), afterSeconds: 90, forSeconds: 3 * 60, everySeconds: 20 * 60 },
  // Short dispenses: short_dispense opens at the third, card sales are refunded; it clears an hour after the last.
  { kind: 'flow-meter', machine: demoEspId(6), afterSeconds: 120, forSeconds: 4 * 60, everySeconds: 90 * 60 },
  // A power cut: offline (critical) after the two minutes set below, cleared when it is back.
  { kind: 'dark', machine: demoEspId(8), afterSeconds: 30, forSeconds: 5 * 60, everySeconds: 30 * 60 },
  // Online but selling nothing: no_sales after the three minutes set below, cleared by the next sale.
  { kind: 'stop-selling', machine: demoEspId(10), afterSeconds: 45, forSeconds: 6 * 60, everySeconds: 30 * 60 },
];

/**
 * The defaults wait 10 minutes before an offline alarm and 2 hours (in business hours) before a
 * no_sales one; the machines that go dark or stop selling get short thresholds, all day, so that a
 * visitor sees those alarms within minutes. Set through the API as the manager would.
 */
export const DEMO_ALARM_SETTINGS: Readonly<Record<string, AlarmSettingsUpdate>> = {
  [demoEspId(8)]: { offlineAfterMinutes: 2 },
  [demoEspId(10)]: { noSalesAfterMinutes: 3, businessHours: { from: '00:00', to: '00:00' } },
};

export async function applyDemoAlarmSettings(baseUrl: string): Promise<void> {
  const manager = await demoLogin(baseUrl, DEMO_ACCOUNTS.manager.email);
  for (const [espId, settings] of Object.entries(DEMO_ALARM_SETTINGS)) {
    await demoCall(baseUrl, 'PUT', `/machines/${espId}/alarm-settings`, manager, settings);
  }
  new Logger('Demo').log(`Short alarm thresholds on ${Object.keys(DEMO_ALARM_SETTINGS).join(', ')}`);
}

/** The banner's lines about the faults. */
export function describeDemoFaults(steps: readonly FaultStep[]): string[] {
  return steps.map((s) => `    ${describeFaultStep(s)}: ${FAULTS[s.kind].effect}`);
}
