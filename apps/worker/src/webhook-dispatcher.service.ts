import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { PrismaService } from '@schedlab/db';
import { WebhookDispatcher } from '@schedlab/webhooks';

/** Delivers due webhook deliveries from PostgreSQL (every worker process polls; rows are claimed with SKIP LOCKED). */
@Injectable()
export class WebhookDispatcherService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly dispatcher: WebhookDispatcher;

  constructor(prisma: PrismaService, @InjectAppConfig() config: AppConfig) {
    const logger = new Logger('WebhookDispatcher');
    this.dispatcher = new WebhookDispatcher(prisma, config.webhooks, {
      log: (message) => logger.log(message),
      warn: (message) => logger.warn(message),
    });
  }

  onApplicationBootstrap(): void {
    this.dispatcher.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.dispatcher.stop();
  }
}
