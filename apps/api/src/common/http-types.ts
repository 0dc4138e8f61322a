import type { IncomingMessage, ServerResponse } from 'node:http';

/** The parts of Express's request and response the api uses (no @types/express in the workspace). */
export type ApiRequest = IncomingMessage & { body?: unknown; id?: unknown; query?: unknown };
export type ApiResponse = ServerResponse & {
  status(code: number): ApiResponse;
  json(body: unknown): void;
};
