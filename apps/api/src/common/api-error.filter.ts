import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { GqlContextType } from '@nestjs/graphql';
import type { ApiRequest as Request, ApiResponse as Response } from './http-types';
import { GraphQLError } from 'graphql';
import { ZodError } from 'zod';
import { Prisma } from '@schedlab/db';
import { ApiError } from './api-error';
import { errorBody, requestIdOf } from './error-body';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** Any thrown value as an ApiError: ours as they are, zod and Nest errors translated, the rest 500. */
export function toApiError(exception: unknown): ApiError {
  if (exception instanceof ApiError) return exception;
  if (exception instanceof ZodError) {
    return ApiError.badRequest(
      'invalid_request',
      exception.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; '),
      exception.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
    );
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse() as string | { message?: unknown; errors?: unknown };
    const message =
      typeof response === 'string'
        ? response
        : Array.isArray(response.message)
          ? response.message.join('; ')
          : String(response.message ?? exception.message);
    const details = typeof response === 'object' ? response.errors : undefined;
    return new ApiError(status, CODE_BY_STATUS[status] ?? `http_${status}`, message, details);
  }
  if (exception instanceof Prisma.PrismaClientKnownRequestError) {
    // A value the column cannot hold (an id that is not a uuid, a string past its length) is
    // the caller's mistake wherever it slipped past validation: 400, never 500.
    if (exception.code === 'P2023' || exception.code === 'P2007') {
      return ApiError.badRequest(
        'invalid_value',
        'A value in the request is not valid for its field (e.g. an id that is not a uuid)',
      );
    }
    if (exception.code === 'P2000') {
      return ApiError.badRequest('value_too_long', 'A value in the request is too long for its field');
    }
  }
  // PostgreSQL "data exception" (class 22): a value it cannot hold, e.g. a NUL byte in a name,
  // text where a uuid belongs, a number out of range. Raised through the driver adapter.
  const cause = (exception as { name?: string; cause?: { kind?: string; code?: string } } | null)?.cause;
  if (
    (exception as { name?: string } | null)?.name === 'DriverAdapterError' &&
    cause?.kind === 'postgres' &&
    typeof cause.code === 'string' &&
    cause.code.startsWith('22')
  ) {
    return ApiError.badRequest(
      'invalid_value',
      'A value in the request cannot be stored (e.g. a NUL character, or an id that is not a uuid)',
      { sqlState: cause.code },
    );
  }
  return new ApiError(HttpStatus.INTERNAL_SERVER_ERROR, 'internal', 'Internal server error');
}

/** Renders every error as `{"error": {code, message, details, requestId}}` (GraphQL: extensions). */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiErrorFilter');

  catch(exception: unknown, host: ArgumentsHost) {
    const error = toApiError(exception);
    if (error.status >= 500) this.logger.error(exception);
    if (host.getType<GqlContextType>() === 'graphql') {
      const req = (host.getArgs()[2] as { req?: Request } | undefined)?.req;
      return new GraphQLError(error.message, {
        extensions: {
          code: error.code,
          status: error.status,
          ...(error.details === undefined ? {} : { details: error.details }),
          ...(req ? { requestId: requestIdOf(req) } : {}),
        },
      });
    }
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const retryAfter = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    res.status(error.status).json(errorBody(error.code, error.message, error.details, requestIdOf(req, res)));
  }
}
