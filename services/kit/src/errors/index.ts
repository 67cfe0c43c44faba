/**
 * Application errors shared by every service. The `code` travels in RPC error replies and the
 * gateway maps it to an HTTP status, so a service never needs to know about HTTP.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'INSUFFICIENT_STORAGE'
  | 'TOO_MANY_REQUESTS'
  | 'UNAVAILABLE'
  | 'INTERNAL';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields returned to the client next to `message` (e.g. the id of an existing item). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError('BAD_REQUEST', message, details);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new AppError('CONFLICT', message, details);
export const unauthorized = () => new AppError('UNAUTHORIZED', 'Unauthorized');
export const unavailable = (message: string) => new AppError('UNAVAILABLE', message);
/** The user's storage quota would be exceeded (HTTP 507). */
export const insufficientStorage = (message: string) => new AppError('INSUFFICIENT_STORAGE', message);

export const httpStatusOf: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  INSUFFICIENT_STORAGE: 507,
  TOO_MANY_REQUESTS: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
