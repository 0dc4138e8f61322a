import { Injectable } from '@nestjs/common';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import {
  type RegisterEndpointInput,
  UnsafeWebhookUrlError,
  WebhookEndpoints,
  WebhookNotFoundError,
} from '@schedlab/webhooks';
import { ApiError } from '../common/api-error';
import { TenantData } from '../common/tenant-data';

/**
 * The api side of webhook endpoints: @schedlab/webhooks does the work; each call runs in one
 * tenant-confined transaction (row-level security as well as the explicit tenant filters), and
 * the library's errors become API errors (unknown or foreign ids answer 404 alike).
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly data: TenantData,
    @InjectAppConfig() private readonly config: AppConfig,
  ) {}

  private async within<T>(tenantId: string, work: (endpoints: WebhookEndpoints) => Promise<T>): Promise<T> {
    try {
      return await this.data.run(tenantId, (tx) => work(new WebhookEndpoints(tx, this.config.webhooks)));
    } catch (error) {
      if (error instanceof WebhookNotFoundError) {
        const [, kind, id] = /^Webhook (endpoint|delivery) (\S+)/.exec(error.message) ?? [];
        throw ApiError.notFound(kind === 'delivery' ? 'Webhook delivery' : 'Webhook endpoint', id ?? '');
      }
      if (error instanceof UnsafeWebhookUrlError) {
        throw ApiError.badRequest('unsafe_webhook_url', error.message, {
          field: 'url',
          reason: error.reason,
        });
      }
      throw error;
    }
  }

  register(tenantId: string, input: RegisterEndpointInput) {
    return this.within(tenantId, (e) => e.register(tenantId, input));
  }
  list(tenantId: string) {
    return this.within(tenantId, (e) => e.list(tenantId));
  }
  get(tenantId: string, id: string) {
    return this.within(tenantId, (e) => e.get(tenantId, id));
  }
  rotateSecret(tenantId: string, id: string) {
    return this.within(tenantId, (e) => e.rotateSecret(tenantId, id));
  }
  setEnabled(tenantId: string, id: string, enabled: boolean) {
    return this.within(tenantId, (e) => e.setEnabled(tenantId, id, enabled));
  }
  remove(tenantId: string, id: string) {
    return this.within(tenantId, (e) => e.remove(tenantId, id));
  }
  deliveries(tenantId: string, endpointId: string, limit?: number) {
    return this.within(tenantId, (e) => e.deliveries(tenantId, endpointId, limit));
  }
  redeliver(tenantId: string, deliveryId: string) {
    return this.within(tenantId, (e) => e.redeliver(tenantId, deliveryId));
  }
}
