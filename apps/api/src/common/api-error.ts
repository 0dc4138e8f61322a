import { HttpStatus } from '@nestjs/common';

/**
 * An error the API answers on purpose: HTTP status, a stable machine-readable code, a message
 * for people and optional details (e.g. the offending field). Rendered by ApiErrorFilter as
 * `{"error": {code, message, details, requestId}}` and, in GraphQL, as extensions.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static badRequest(code: string, message: string, details?: unknown) {
    return new ApiError(HttpStatus.BAD_REQUEST, code, message, details);
  }

  /** Another tenant's resource answers exactly like a missing one. */
  static notFound(resource: string, id: string) {
    return new ApiError(HttpStatus.NOT_FOUND, 'not_found', `${resource} ${id} not found`, { resource, id });
  }

  static conflict(code: string, message: string, details?: unknown) {
    return new ApiError(HttpStatus.CONFLICT, code, message, details);
  }
}
