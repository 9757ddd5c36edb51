import type { FleetStats } from './fleet.types.js';

/** One line for the console every few seconds: what an operator watches during a run. */
export function formatSummary(
  stats: FleetStats,
  now: Date = new Date(),
  previous?: FleetStats,
  seconds?: number,
): string {
  const time = now.toISOString().slice(11, 19);
  const parts = [
    `generated ${stats.generated}`,
    `acked ${stats.acked}`,
    `outbox ${stats.outbox}`,
    `online ${stats.online}/${stats.machines}`,
  ];
  if (previous && seconds) parts.push(`${((stats.generated - previous.generated) / seconds).toFixed(1)} sales/s`);
  if (stats.awaitingId) parts.push(`awaiting id ${stats.awaitingId}`);
  if (stats.republished) parts.push(`resent ${stats.republished}`);
  if (stats.duplicatesSent) parts.push(`duplicates ${stats.duplicatesSent}`);
  if (stats.reconnects) parts.push(`reconnects ${stats.reconnects}`);
  if (stats.dropped) parts.push(`dropped ${stats.dropped}`);
  if (stats.offlineSales) parts.push(`sold offline ${stats.offlineSales}`);
  if (stats.cardsRefused) parts.push(`cards refused ${stats.cardsRefused}`);
  if (stats.telemetrySent) parts.push(`telemetry ${stats.telemetrySent}`);
  if (stats.faulty) parts.push(`faulty ${stats.faulty}`);
  return `[${time}Z] ${parts.join(' · ')}`;
}
