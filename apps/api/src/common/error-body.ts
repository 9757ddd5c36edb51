import type { ErrorBody } from '@wv/contracts';
import { ErrorCode } from '@wv/contracts';
import { ZodError } from 'zod';
import { AppError } from './app-error.js';

/** Maps a ZodError to the 400 body that names each bad field. */
export function validationError(error: ZodError, where: 'body' | 'query' | 'params'): AppError {
  const fields = error.issues.map((issue) => {
    const path = issue.path.length ? issue.path.join('.') : where;
    if (issue.code === 'unrecognized_keys') {
      return {
        path: issue.keys.join(', '),
        message: `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`,
      };
    }
    return { path, message: issue.message };
  });
  const summary = fields
    .map((f) => (f.message.startsWith('Unknown') ? f.message : `${f.path}: ${f.message}`))
    .join('; ');
  return new AppError(ErrorCode.ValidationFailed, summary, fields);
}

export function errorBody(error: AppError): ErrorBody {
  return {
    statusCode: error.status,
    code: error.code,
    message: error.message,
    error: error.message,
    ...(error.fields ? { fields: error.fields } : {}),
  };
}
