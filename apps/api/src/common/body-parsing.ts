import type { ServerResponse } from 'node:http';
import { parseDocument } from 'yaml';
import {
  checkValueLimits,
  DEFAULT_INPUT_LIMITS,
  InputLimitError,
  type InputLimits,
  isStackExhaustion,
  isWellFormedText,
  isYamlAliasExhaustion,
  MalformedTextError,
} from '@schedlab/k8s';
import { ApiError } from './api-error';
import { sendError } from './error-body';
import { jsonErrorOffset, lineColumnAt } from './json-error-offset';
import type { ApiRequest as Request } from './http-types';

/** Media types the /v1 API reads. */
export type BodyFormat = 'json' | 'yaml';

const FORMAT_BY_MEDIA_TYPE: Record<string, BodyFormat> = {
  'application/json': 'json',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
};

/** What the middleware leaves on the request: the bytes and their declared format. */
export interface RawBody {
  buffer: Buffer;
  format: BodyFormat;
  /** The api's INPUT_MAX_* settings, for whoever parses the body. */
  limits: InputLimits;
}

export function rawBodyOf(req: Request): RawBody | undefined {
  return (req as Request & { rawV1Body?: RawBody }).rawV1Body;
}

/**
 * The body as text, dropping the request's reference to the bytes, so a large import holds
 * the text only (the buffer can be collected while the text is parsed).
 */
export function takeBodyText(req: Request): string | undefined {
  const carrier = req as Request & { rawV1Body?: RawBody };
  const raw = carrier.rawV1Body;
  carrier.rawV1Body = undefined;
  return raw?.buffer.toString('utf8');
}

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

class BodyTooLarge extends Error {}

/** The whole body, or BodyTooLarge as soon as it passes `limitBytes` (the rest is not buffered). */
function readBody(req: Request, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limitBytes) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        req.removeAllListeners('data');
        req.resume(); // drain, so the 413 reaches the client
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

/**
 * /v1 bodies: JSON or YAML only (else 415), at most `limitBytes` (else 413), kept as bytes so
 * a snapshot import parses its text exactly once; handlers parse with parseBodyDocument.
 */
export function v1BodyMiddleware(limitBytes: number, limits: InputLimits = DEFAULT_INPUT_LIMITS) {
  return (req: Request, res: ServerResponse, next: (error?: unknown) => void) => {
    if (!hasBody(req)) return next();
    const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const format = FORMAT_BY_MEDIA_TYPE[mediaType];
    if (!format) {
      req.resume();
      return sendError(
        req,
        res,
        415,
        'unsupported_media_type',
        `Content-Type ${mediaType ? `"${mediaType}"` : '(missing)'} is not supported; send application/json or application/yaml`,
        { contentType: mediaType || null, supported: Object.keys(FORMAT_BY_MEDIA_TYPE) },
      );
    }
    readBody(req, limitBytes).then(
      (buffer) => {
        (req as Request & { rawV1Body?: RawBody; _body?: boolean }).rawV1Body = { buffer, format, limits };
        (req as Request & { _body?: boolean })._body = true; // tells any later body parser it is done
        next();
      },
      (error: unknown) => {
        if (error instanceof BodyTooLarge) {
          res.setHeader('connection', 'close');
          return sendError(
            req,
            res,
            413,
            'payload_too_large',
            `Request body exceeds the limit of ${limitBytes} bytes`,
            { limitBytes },
          );
        }
        next(error);
      },
    );
  };
}

/** A document past an INPUT_MAX_* limit: 400 naming the field, the limit and its setting. */
export function inputLimitApiError(error: InputLimitError): ApiError {
  return ApiError.badRequest('input_too_complex', error.message, {
    setting: error.setting,
    limit: error.max,
    ...(error.field ? { field: error.field } : {}),
  });
}

/**
 * Errors of the JSON body parser (GraphQL and the other non-/v1 routes) in our error shape:
 * too large 413, malformed 400, unsupported charset or encoding 415; never a 500.
 */
export function bodyParserErrorHandler(limitBytes: number) {
  return (error: unknown, req: Request, res: ServerResponse, next: (error?: unknown) => void) => {
    const e = error as { type?: string; status?: number; statusCode?: number; message?: string };
    const status = e?.status ?? e?.statusCode;
    if (typeof status !== 'number' || status < 400 || status >= 500) {
      return next(error);
    }
    if (status === 413) {
      res.setHeader('connection', 'close');
      return sendError(
        req,
        res,
        413,
        'payload_too_large',
        `Request body exceeds the limit of ${limitBytes} bytes`,
        {
          limitBytes,
        },
      );
    }
    if (status === 415) {
      return sendError(req, res, 415, 'unsupported_media_type', e.message ?? 'Unsupported body encoding');
    }
    return sendError(req, res, 400, 'malformed_body', `Malformed request body: ${e.message ?? e.type}`);
  };
}

const GRAPHQL_RESPONSE_TYPES = ['application/json', 'application/graphql-response+json'];

/**
 * A GraphQL request whose Accept header takes neither JSON type answers 406 before anything
 * runs. (Apollo only negotiates after executing: a mutation was applied, e.g. a key created
 * and its secret lost, while the client was told 406.)
 */
export function graphqlAcceptGuard() {
  return (req: Request, res: ServerResponse, next: (error?: unknown) => void) => {
    const accept = req.headers.accept;
    if (accept === undefined || accept.trim() === '') return next();
    const accepts = (req as Request & { accepts?: (types: string[]) => string | false }).accepts;
    if (typeof accepts !== 'function' || accepts.call(req, GRAPHQL_RESPONSE_TYPES)) return next();
    return sendError(
      req,
      res,
      406,
      'not_acceptable',
      'GraphQL answers application/json or application/graphql-response+json; the Accept header allows neither',
      {
        accept,
        supported: GRAPHQL_RESPONSE_TYPES,
      },
    );
  };
}

export function malformedTextApiError(error: MalformedTextError): ApiError {
  return ApiError.badRequest(
    'malformed_body',
    error.message,
    error.field ? { field: error.field } : undefined,
  );
}

/** JSON.parse reviver for GraphQL bodies: a lone surrogate anywhere is a malformed body (400). */
export function rejectMalformedText(key: string, value: unknown): unknown {
  if (typeof value === 'string' && !isWellFormedText(value))
    throw new SyntaxError('string is not well-formed Unicode');
  if (!isWellFormedText(key)) throw new SyntaxError('key is not well-formed Unicode');
  return value;
}

function yamlSyntaxError(text: string): ApiError | undefined {
  const first = parseDocument(text, { prettyErrors: false }).errors[0];
  if (!first) return undefined;
  const pos = first.linePos?.[0];
  return ApiError.badRequest(
    'malformed_body',
    `Malformed YAML${pos ? ` at line ${pos.line}, column ${pos.col}` : ''}: ${first.message.split('\n')[0]}`,
    pos ? { line: pos.line, column: pos.col } : undefined,
  );
}

/**
 * A JSON or YAML body as a value; syntax errors answer 400 with line and column.
 */
export function parseBodyText(
  text: string,
  format: BodyFormat,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
): unknown {
  try {
    const value = format === 'json' ? parseJsonText(text) : parseYamlText(text, limits);
    checkValueLimits(value, limits);
    return value;
  } catch (error) {
    if (error instanceof InputLimitError) throw inputLimitApiError(error);
    if (error instanceof MalformedTextError) throw malformedTextApiError(error);
    if (isStackExhaustion(error)) {
      throw inputLimitApiError(new InputLimitError('maxDepth', limits.maxDepth, '', 'nested too deeply'));
    }
    throw error;
  }
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const where = lineColumnAt(text, jsonErrorOffset(text));
    throw ApiError.badRequest(
      'malformed_body',
      `Malformed JSON at line ${where.line}, column ${where.column}: ${(error as Error).message.split('\n')[0]}`,
      where,
    );
  }
}

function parseYamlText(text: string, limits: InputLimits): unknown {
  const error = yamlSyntaxError(text);
  if (error) throw error;
  try {
    return parseDocument(text).toJS({ maxAliasCount: limits.maxYamlAliases });
  } catch (e) {
    if (isYamlAliasExhaustion(e)) {
      throw new InputLimitError('maxYamlAliases', limits.maxYamlAliases, '', 'YAML aliases expand too far');
    }
    if (e instanceof ReferenceError || e instanceof TypeError) {
      // e.g. "*a" with no anchor a: a malformed document
      throw ApiError.badRequest('malformed_body', `Malformed YAML: ${e.message.split('\n')[0]}`);
    }
    throw e;
  }
}

/** The parsed body of a /v1 request, or 400 when there is none. */
export function parseBodyDocument(req: Request): unknown {
  const raw = rawBodyOf(req);
  if (!raw) throw ApiError.badRequest('missing_body', 'A JSON or YAML request body is required');
  return parseBodyText(raw.buffer.toString('utf8'), raw.format, raw.limits);
}
