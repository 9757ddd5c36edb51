import { Injectable, NestMiddleware } from '@nestjs/common';
import { ErrorCode } from '@wv/contracts';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error.js';
import { errorBody } from './error-body.js';

export const MAX_BODY_BYTES = 1024 * 1024;
const parseJson = express.json({ limit: MAX_BODY_BYTES, strict: false });

/**
 * Parses JSON bodies itself so that malformed JSON (400) and bodies over 1 MB (413) answer with the
 * contract's error body; body-parser errors would otherwise bypass Nest's exception filters.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    parseJson(req, res, (err?: { type?: string }) => {
      if (!err) return next();
      const error =
        err.type === 'entity.too.large'
          ? new AppError(ErrorCode.PayloadTooLarge)
          : err.type === 'entity.parse.failed'
            ? new AppError(ErrorCode.MalformedJson)
            : new AppError(ErrorCode.ValidationFailed, 'The request body could not be read');
      res.status(error.status).json(errorBody(error));
    });
  }
}
