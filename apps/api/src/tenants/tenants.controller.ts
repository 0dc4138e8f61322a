import { Body, Controller, Get, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ZodBodyPipe } from '../common/zod-body.pipe';
import { CreateTenantBody, type CreateTenantInput, createTenantSchema, TenantView } from './tenant.model';
import { TenantsService } from './tenants.service';

@ApiTags('tenants')
@Controller('api/tenants')
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
