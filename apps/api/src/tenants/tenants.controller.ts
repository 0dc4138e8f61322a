import { Body, Controller, Get, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ZodBodyPipe } from '../common/zod-body.pipe';
import { CreateTenantBody, type CreateTenantInput, createTenantSchema, TenantView } from './tenant.model';
import { TenantsService } from './tenants.service';
import { OperatorOnly } from '../auth/auth-context';

@ApiTags('tenants')
@Controller('api/tenants')
// The foundation's example endpoints act on any tenant id, so only operators may call them.
@OperatorOnly()
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
  @ApiCreatedResponse({ type: TenantView })
  create(@Body(new ZodBodyPipe(createTenantSchema)) body: CreateTenantBody & CreateTenantInput) {
    return this.tenants.create(body);
  }

  @Get(':id')
  @ApiOkResponse({ type: TenantView })
  get(@Param('id', ParseUUIDPipe) id: string) {
    return this.tenants.get(id);
  }
}
