import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { type HttpLogger, pinoHttp } from 'pino-http';
import { APP_CONFIG, type AppConfig } from '@schedlab/config';
import { prettyDestination } from './pretty';
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

const httpLoggers = new WeakMap<AppConfig, HttpLogger>();

/**
 * The request logger (pino-http) of one configuration, made once. The api applies it before any
 * other middleware (createApiApp), so a request its body middleware refuses (415, 413, a body
 * that does not parse) is logged under the same id its error body and x-request-id header carry.
 */
export function httpLoggerFor(config: AppConfig): HttpLogger {
  let logger = httpLoggers.get(config);
  if (!logger) {
    const destination = redactingDestination(configSecrets(config));
    logger = pinoHttp(
      {
        level: config.logLevel,
        genReqId: requestIdFor,
        customProps: () => ({ service: process.env.SCHEDLAB_SERVICE ?? 'schedlab' }),
        redact: { paths: REDACTED_PATHS, censor: REDACTED },
        // Probes hit these every few seconds; logging them would drown everything else.
        autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
      },
      // JSON lines unless NODE_ENV=development is set: then a person reads them in a terminal.
      config.logFormat === 'pretty' ? prettyDestination(destination) : destination,
    );
    httpLoggers.set(config, logger);
  }
  return logger;
}

/**
 * Structured JSON logs on stdout via pino; HTTP requests carry `req.id`. Secrets never reach
 * the output: headers that carry them are redacted by path, and every line passes through
 * redactingDestination (API keys, webhook secrets, bearer tokens, URL passwords, the operator
 * token), in the api and the worker alike. Nest's logger shares httpLoggerFor's pino instance
 * (`useExisting`: the api applies the request middleware itself, ahead of everything else).
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        pinoHttp: { logger: httpLoggerFor(config).logger },
        useExisting: true,
      }),
    }),
  ],
})
export class LoggingModule {}
