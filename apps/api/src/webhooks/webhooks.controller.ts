import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { registerEndpointSchema } from '@schedlab/webhooks';
import { z } from 'zod';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { parseBodyDocument } from '../common/body-parsing';
import type { ApiRequest as Request } from '../common/http-types';
import { ResourceIdPipe } from '../common/id-param.pipe';
import { parseQuery } from '../common/zod-query';
import {
  RegisterWebhookBody,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEndpointWithSecretView,
  WebhookRedeliveryView,
} from './webhook.model';
import { WebhooksService } from './webhooks.service';

const endpointId = () => new ResourceIdPipe('Webhook endpoint');
const deliveriesQuerySchema = z
  .object({ limit: z.coerce.number().int().min(1).max(200).default(50) })
  .strict();

/** Webhook endpoints of the calling tenant; managing them needs the admin scope. */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('v1/webhooks')
@RequireScope('admin')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('endpoints')
  @ApiBody({ type: RegisterWebhookBody })
  @ApiCreatedResponse({
    type: WebhookEndpointWithSecretView,
    description: 'The secret is shown only in this response',
  })
  register(@CurrentTenant() auth: TenantAuth, @Req() req: Request) {
    return this.webhooks.register(auth.tenantId, registerEndpointSchema.parse(parseBodyDocument(req)));
  }

  @Get('endpoints')
  @ApiOkResponse({ type: [WebhookEndpointView] })
  list(@CurrentTenant() auth: TenantAuth) {
    return this.webhooks.list(auth.tenantId);
  }

  @Get('endpoints/:id')
  @ApiOkResponse({ type: WebhookEndpointView })
  get(@CurrentTenant() auth: TenantAuth, @Param('id', endpointId()) id: string) {
    return this.webhooks.get(auth.tenantId, id);
  }

  @Post('endpoints/:id/rotate-secret')
  @HttpCode(200)
  @ApiOkResponse({
    type: WebhookEndpointWithSecretView,
    description: 'The new secret, shown only now; the old one stops signing at once',
  })
  rotate(@CurrentTenant() auth: TenantAuth, @Param('id', endpointId()) id: string) {
    return this.webhooks.rotateSecret(auth.tenantId, id);
  }

  @Post('endpoints/:id/disable')
  @HttpCode(200)
  @ApiOkResponse({ type: WebhookEndpointView })
  disable(@CurrentTenant() auth: TenantAuth, @Param('id', endpointId()) id: string) {
    return this.webhooks.setEnabled(auth.tenantId, id, false);
  }

  @Post('endpoints/:id/enable')
  @HttpCode(200)
  @ApiOkResponse({
    type: WebhookEndpointView,
    description: 'Clears the failure count; pending deliveries resume',
  })
  enable(@CurrentTenant() auth: TenantAuth, @Param('id', endpointId()) id: string) {
    return this.webhooks.setEnabled(auth.tenantId, id, true);
  }

  @Delete('endpoints/:id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@CurrentTenant() auth: TenantAuth, @Param('id', endpointId()) id: string): Promise<void> {
    await this.webhooks.remove(auth.tenantId, id);
  }

  @Get('endpoints/:id/deliveries')
  @ApiOkResponse({ type: [WebhookDeliveryView], description: 'Newest first, each with every attempt' })
  deliveries(
    @CurrentTenant() auth: TenantAuth,
    @Param('id', endpointId()) id: string,
    @Query() query: unknown,
  ) {
    return this.webhooks.deliveries(auth.tenantId, id, parseQuery(deliveriesQuerySchema, query).limit);
  }

  @Post('deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @ApiOkResponse({ type: WebhookRedeliveryView, description: 'Queued again with the same webhook-id' })
  redeliver(@CurrentTenant() auth: TenantAuth, @Param('deliveryId') deliveryId: string) {
    return this.webhooks.redeliver(auth.tenantId, deliveryId);
  }
}
