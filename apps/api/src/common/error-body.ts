import type { IncomingMessage, ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER, requestIdFor } from '@schedlab/logging';

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown; requestId?: string };
}

/** The request id pino-http assigned (or the caller sent), for error bodies. */
export function requestIdOf(req: IncomingMessage, res?: ServerResponse): string | undefined {
  const fromLogger = (req as { id?: unknown }).id;
  if (typeof fromLogger === 'string') return fromLogger;
  const assigned = res?.getHeader(REQUEST_ID_HEADER);
  if (typeof assigned === 'string') return assigned;
  // Refused before the logger's middleware ran (body limits, content type, a path that does not
  // decode): assign the id now, so the answer and the log line still carry one.
  if (res && !res.headersSent) return requestIdFor(req, res);
  const header = req.headers[REQUEST_ID_HEADER];
  return typeof header === 'string' ? header : undefined;
}

export function errorBody(
  code: string,
  message: string,
  details: unknown,
  requestId: string | undefined,
): ErrorBody {
  return {
    error: {
      code,
      message,
      ...(details === undefined ? {} : { details }),
      ...(requestId ? { requestId } : {}),
    },
  };
}

/** For middleware that answers before Nest's exception filters can run. */
export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  details?: unknown,
): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(errorBody(code, message, details, requestIdOf(req, res))));
}
