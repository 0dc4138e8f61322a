import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import type { AppConfig } from '@schedlab/config';
import { WorkerModule } from './worker.module';

/** A Nest application without HTTP: it only consumes the queues. Used by main.ts and tests. */
export async function createWorkerApp(config: AppConfig): Promise<INestApplicationContext> {
  process.env.SCHEDLAB_SERVICE ??= 'worker';
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.init();
  return app;
}
