import { Module } from '@nestjs/common';
import { SweepsModule } from '../sweeps/sweeps.module';
import { WebhooksController } from './webhooks.controller';
import { WebhooksResolver } from './webhooks.resolver';
import { WebhooksService } from './webhooks.service';

/**
 * Webhook endpoint management (REST /v1/webhooks and GraphQL). It also brings in the sweeps API,
 * the other tenant-facing part of the worker-pool feature, so the root module imports one module.
 */
@Module({
  imports: [SweepsModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhooksResolver],
})
export class WebhooksModule {}
