import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { ApiRequest as Request } from '../common/http-types';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { parseBodyDocument } from '../common/body-parsing';
import { ResourceIdPipe } from '../common/id-param.pipe';
import { pageQuerySchema } from '../common/pagination';
import { parseQuery } from '../common/zod-query';
import { CreateScenarioBody, createScenarioSchema, ScenarioView } from './scenario.model';
import { ScenariosService } from './scenarios.service';

@ApiTags('scenarios')
@ApiBearerAuth()
@Controller('v1/scenarios')
export class ScenariosController {
  constructor(private readonly scenarios: ScenariosService) {}

  @Post()
  @RequireScope('write')
  @ApiBody({ type: CreateScenarioBody })
  @ApiCreatedResponse({ type: ScenarioView })
  create(@CurrentTenant() auth: TenantAuth, @Req() req: Request) {
    return this.scenarios.create(auth.tenantId, createScenarioSchema.parse(parseBodyDocument(req)));
  }

  @Get()
  @RequireScope('read')
  list(@CurrentTenant() auth: TenantAuth, @Query() query: unknown) {
    const { limit, cursor } = parseQuery(pageQuerySchema, query);
    return this.scenarios.list(auth.tenantId, limit, cursor);
  }

  @Get(':id')
  @RequireScope('read')
  @ApiOkResponse({ type: ScenarioView })
  get(@CurrentTenant() auth: TenantAuth, @Param('id', new ResourceIdPipe('Scenario')) id: string) {
    return this.scenarios.get(auth.tenantId, id);
  }

  @Delete(':id')
  @RequireScope('write')
  @HttpCode(204)
  @ApiNoContentResponse()
  async delete(@CurrentTenant() auth: TenantAuth, @Param('id', new ResourceIdPipe('Scenario')) id: string) {
    await this.scenarios.delete(auth.tenantId, id);
  }
}
