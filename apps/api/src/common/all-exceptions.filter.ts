import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ErrorCode } from '@wv/contracts';
import type { Response } from 'express';
import { AppError } from './app-error.js';
import { errorBody } from './error-body.js';

/** Every failure leaves as `{statusCode, code, message}`; unknown errors are logged, never leaked. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const res = host.switchToHttp().getResponse<Response>();
    const error = this.toAppError(exception);
    if (error.status >= 500) this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    if (!res.headersSent) res.status(error.status).json(errorBody(error));
  }

  private toAppError(exception: unknown): AppError {
    if (exception instanceof AppError) return exception;
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
