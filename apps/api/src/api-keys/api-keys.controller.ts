import { Controller, Delete, Get, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { ApiRequest as Request } from '../common/http-types';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { parseBodyDocument } from '../common/body-parsing';
import { ResourceIdPipe } from '../common/id-param.pipe';
import { ApiKeyView, CreateApiKeyBody, createApiKeySchema, CreatedApiKeyView } from './api-key.model';
import { ApiKeysService } from './api-keys.service';

@ApiTags('api-keys')
@ApiBearerAuth()
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @RequireScope('admin')
  @ApiBody({ type: CreateApiKeyBody })
  @ApiCreatedResponse({ type: CreatedApiKeyView, description: 'The secret is in this response only' })
  create(@CurrentTenant() auth: TenantAuth, @Req() req: Request) {
    return this.keys.create(auth.tenantId, createApiKeySchema.parse(parseBodyDocument(req)));
  }

  @Get()
  @RequireScope('admin')
  @ApiOkResponse({ type: [ApiKeyView] })
  list(@CurrentTenant() auth: TenantAuth) {
    return this.keys.list(auth.tenantId);
  }

  @Delete(':id')
  @RequireScope('admin')
  @ApiOkResponse({ type: ApiKeyView, description: 'Revokes the key' })
  revoke(@CurrentTenant() auth: TenantAuth, @Param('id', new ResourceIdPipe('API key')) id: string) {
    return this.keys.revoke(auth.tenantId, id);
  }
}
