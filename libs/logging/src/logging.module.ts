import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { APP_CONFIG, type AppConfig } from '@schedlab/config';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Honour a caller's request id (so logs join up across services), else mint one. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const id = typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** Structured JSON logs on stdout via pino; HTTP requests carry `req.id`. */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        pinoHttp: {
          level: config.logLevel,
          genReqId: requestIdFor,
          customProps: () => ({ service: process.env.SCHEDLAB_SERVICE ?? 'schedlab' }),
          // Probes hit these every few seconds; logging them would drown everything else.
          autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
        },
      }),
    }),
  ],
})
export class LoggingModule {}
