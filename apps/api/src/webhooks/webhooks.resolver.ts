import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { registerEndpointSchema } from '@schedlab/webhooks';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import {
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEndpointWithSecretView,
  WebhookRedeliveryView,
} from './webhook.model';
import { WebhooksService } from './webhooks.service';

/** The same operations as /v1/webhooks, admin scope. */
@Resolver()
export class WebhooksResolver {
  constructor(private readonly webhooks: WebhooksService) {}

  @Query(() => [WebhookEndpointView])
  @RequireScope('admin')
  webhookEndpoints(@CurrentTenant() auth: TenantAuth) {
    return this.webhooks.list(auth.tenantId);
  }

  @Query(() => [WebhookDeliveryView])
  @RequireScope('admin')
  webhookDeliveries(
    @CurrentTenant() auth: TenantAuth,
    @Args('endpointId', { type: () => ID }) endpointId: string,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
  ) {
    return this.webhooks.deliveries(auth.tenantId, endpointId, limit ?? undefined);
  }

  @Mutation(() => WebhookEndpointWithSecretView)
  @RequireScope('admin')
  registerWebhookEndpoint(
    @CurrentTenant() auth: TenantAuth,
    @Args('url', { type: () => String }) url: string,
    @Args('eventTypes', { type: () => [String] }) eventTypes: string[],
  ) {
    return this.webhooks.register(auth.tenantId, registerEndpointSchema.parse({ url, eventTypes }));
  }

  @Mutation(() => WebhookEndpointWithSecretView)
  @RequireScope('admin')
  rotateWebhookSecret(@CurrentTenant() auth: TenantAuth, @Args('id', { type: () => ID }) id: string) {
    return this.webhooks.rotateSecret(auth.tenantId, id);
  }

  @Mutation(() => WebhookEndpointView)
  @RequireScope('admin')
  setWebhookEndpointEnabled(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }) id: string,
    @Args('enabled', { type: () => Boolean }) enabled: boolean,
  ) {
    return this.webhooks.setEnabled(auth.tenantId, id, enabled);
  }

  @Mutation(() => Boolean)
  @RequireScope('admin')
  async deleteWebhookEndpoint(@CurrentTenant() auth: TenantAuth, @Args('id', { type: () => ID }) id: string) {
    await this.webhooks.remove(auth.tenantId, id);
    return true;
  }

  @Mutation(() => WebhookRedeliveryView)
  @RequireScope('admin')
  redeliverWebhook(
    @CurrentTenant() auth: TenantAuth,
    @Args('deliveryId', { type: () => ID }) deliveryId: string,
  ) {
    return this.webhooks.redeliver(auth.tenantId, deliveryId);
  }
}
