/** Loggers for the broker: silent by default so that tests and embedding apps choose their own output. */
import type { BrokerLogger } from './broker.types.js';

const noop = (): void => {};

export const silentLogger: BrokerLogger = { info: noop, warn: noop, error: noop };

/** One JSON object per line, for running the broker without a framework logger. */
export function createJsonLogger(write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)) {
  const log =
    (level: 'info' | 'warn' | 'error') =>
    (message: string, fields?: Record<string, unknown>): void =>
      write(JSON.stringify({ level, time: new Date().toISOString(), component: 'broker', message, ...fields }));
  return { info: log('info'), warn: log('warn'), error: log('error') } satisfies BrokerLogger;
}
