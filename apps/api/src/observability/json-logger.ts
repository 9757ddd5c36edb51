import type { LoggerService, LogLevel } from '@nestjs/common';
import { requestContext } from './request-context.js';

const ORDER: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
const LEVEL_NAME: Record<LogLevel, string> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/**
 * Structured logs: one JSON object per line with time, level, context, message and the request id
 * of the HTTP request being served. Nothing here ever receives secrets: callers log ids, not keys.
 */
export class JsonLogger implements LoggerService {
  private readonly max: number;

  constructor(level: LogLevel = 'log') {
    this.max = ORDER.indexOf(level);
  }

  log(message: unknown, ...rest: unknown[]) {
    this.write('log', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.write('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]) {
    this.write('fatal', message, rest);
  }

  private write(level: LogLevel, message: unknown, rest: unknown[]): void {
    if (ORDER.indexOf(level) > this.max) return;
    // Nest passes the context last; errors pass their stack before it.
    const context = typeof rest.at(-1) === 'string' ? (rest.at(-1) as string) : undefined;
    const stack = rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
    const line: Record<string, unknown> = { time: new Date().toISOString(), level: LEVEL_NAME[level] };
    if (context) line.context = context;
    line.msg =
      message instanceof Error ? message.message : typeof message === 'string' ? message : JSON.stringify(message);
    const requestId = requestContext.getStore()?.requestId;
    if (requestId) line.requestId = requestId;
    if (stack) line.stack = stack;
    (level === 'error' || level === 'fatal' ? process.stderr : process.stdout).write(`${JSON.stringify(line)}\n`);
  }
}
