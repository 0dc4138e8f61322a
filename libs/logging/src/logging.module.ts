import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { APP_CONFIG, type AppConfig } from '@schedlab/config';
import { REDACTED, REDACTED_PATHS, redactingDestination, urlPassword } from './redact';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Honour a caller's request id (so logs join up across services), else mint one. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const id = typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** Values that must never appear in a log line, whatever logged them. */
export function configSecrets(config: AppConfig): string[] {
  return [
    config.operatorToken,
    urlPassword(config.databaseUrl),
    urlPassword(config.redisUrl),
    config.reportLinkSecret,
  ].filter((s): s is string => typeof s === 'string' && s.length > 0);
}

/**
 * Structured JSON logs on stdout via pino; HTTP requests carry `req.id`. Secrets never reach
 * the output: headers that carry them are redacted by path, and every line passes through
 * redactingDestination (API keys, webhook secrets, bearer tokens, URL passwords, the operator
 * token), in the api and the worker alike.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        pinoHttp: [
          {
            level: config.logLevel,
            genReqId: requestIdFor,
            customProps: () => ({ service: process.env.SCHEDLAB_SERVICE ?? 'schedlab' }),
            redact: { paths: REDACTED_PATHS, censor: REDACTED },
            // Probes hit these every few seconds; logging them would drown everything else.
            autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
          },
          redactingDestination(configSecrets(config)),
        ],
      }),
    }),
  ],
})
export class LoggingModule {}
