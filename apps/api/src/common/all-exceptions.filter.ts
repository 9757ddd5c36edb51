import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ErrorCode } from '@wv/contracts';
import type { Response } from 'express';
import { AppError } from './app-error.js';
import { errorBody } from './error-body.js';
import { isDatabaseUnavailable } from './pg-errors.js';

/**
 * Seconds a client should wait before the same request may succeed (Retry-After, RFC 9110 section
 * 10.2.3): PostgreSQL restarting or failing over takes seconds; a sales backlog drains in minutes.
 */
const RETRY_AFTER_SECONDS: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.ServiceUnavailable]: 10,
  [ErrorCode.IngestBacklogFull]: 60,
  // Unassigned MAC addresses are purged hourly, and assigning some frees room at once.
  [ErrorCode.MacListFull]: 3600,
};

/** Every failure leaves as `{statusCode, code, message}`; unknown errors are logged, never leaked. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const res = host.switchToHttp().getResponse<Response>();
    const error = this.toAppError(exception);
    const retryAfter = RETRY_AFTER_SECONDS[error.code];
    if (retryAfter !== undefined) {
      // Expected while it lasts: one line, not a stack trace per request (our own refusals are logged where decided).
      if (!(exception instanceof AppError)) this.logger.warn(`${error.code}: ${(exception as Error).message}`);
    } else if (error.status >= 500) {
      this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    }
    if (res.headersSent) return;
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    res.status(error.status).json(errorBody(error));
  }

  private toAppError(exception: unknown): AppError {
    if (exception instanceof AppError) return exception;
    // The request was fine; PostgreSQL cannot be reached now (down, restarting, out of connections).
    if (isDatabaseUnavailable(exception)) return new AppError(ErrorCode.ServiceUnavailable);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return new AppError(ErrorCode.NotFound, 'No such endpoint');
      if (status === 413) return new AppError(ErrorCode.PayloadTooLarge);
      if (status === 401) return new AppError(ErrorCode.Unauthorized);
      if (status === 403) return new AppError(ErrorCode.Forbidden);
      if (status === 429) return new AppError(ErrorCode.RateLimited);
      if (status >= 400 && status < 500) return new AppError(ErrorCode.ValidationFailed, exception.message);
    }
    return new AppError(ErrorCode.Internal);
  }
}
