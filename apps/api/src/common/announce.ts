import type { AppConfig } from '../config/app-config.js';

/**
 * Start-up facts an operator needs at any LOG_LEVEL but `error` (the ports, especially with `0`,
 * which docs/operations.md, "Commands", says are printed at start): one structured line each on stdout.
 */
export function announce(config: Pick<AppConfig, 'logLevel'>, message: string): void {
  if (config.logLevel === 'error') return;
  process.stdout.write(
    `${JSON.stringify({ time: new Date().toISOString(), level: 'info', context: 'Start', msg: message })}\n`,
  );
}
