import { Module } from '@nestjs/common';
import { WebhooksController } from './webhooks.controller';
import { WebhooksResolver } from './webhooks.resolver';
import { WebhooksService } from './webhooks.service';

/** Webhook endpoint management (REST /v1/webhooks and GraphQL). */
@Module({
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhooksResolver],
})
export class WebhooksModule {}
