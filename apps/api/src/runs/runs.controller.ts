import { Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiBody,
  ApiOkResponse,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { ApiRequest as Request } from '../common/http-types';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { parseBodyDocument } from '../common/body-parsing';
import { ResourceIdPipe } from '../common/id-param.pipe';
import { pageQuerySchema } from '../common/pagination';
import { parseQuery } from '../common/zod-query';
import { explanationQuerySchema, placementQuerySchema, submitRunSchema } from './run-input';
import { PlacementPage, RunResultView, RunView, SubmitRunBody, UnschedulableGroup } from './run.model';
import { RunStorageView, storageQuerySchema } from './run-storage.model';
import { RunsService } from './runs.service';

const runId = () => new ResourceIdPipe('Run');

@ApiTags('runs')
@ApiBearerAuth()
@Controller('v1/runs')
export class RunsController {
  constructor(private readonly runs: RunsService) {}

  @Post()
  @RequireScope('write')
  @HttpCode(202)
  @ApiBody({ type: SubmitRunBody })
  @ApiAcceptedResponse({ type: RunView, description: 'Recorded and queued; poll GET /v1/runs/{id}' })
  submit(@CurrentTenant() auth: TenantAuth, @Req() req: Request) {
    return this.runs.submit(auth.tenantId, submitRunSchema.parse(parseBodyDocument(req)));
  }

  @Get()
  @RequireScope('read')
  list(@CurrentTenant() auth: TenantAuth, @Query() query: unknown) {
    const { limit, cursor } = parseQuery(pageQuerySchema, query);
    return this.runs.list(auth.tenantId, limit, cursor);
  }

  @Get(':id')
  @RequireScope('read')
  @ApiOkResponse({ type: RunView })
  get(@CurrentTenant() auth: TenantAuth, @Param('id', runId()) id: string) {
    return this.runs.get(auth.tenantId, id);
  }

  @Post(':id/cancel')
  @RequireScope('write')
  @HttpCode(200)
  @ApiOkResponse({ type: RunView })
  cancel(@CurrentTenant() auth: TenantAuth, @Param('id', runId()) id: string) {
    return this.runs.cancel(auth.tenantId, id);
  }

  @Get(':id/result')
  @RequireScope('read')
  @ApiOkResponse({ type: RunResultView })
  result(@CurrentTenant() auth: TenantAuth, @Param('id', runId()) id: string) {
    return this.runs.result(auth.tenantId, id);
  }

  @Get(':id/storage')
  @RequireScope('read')
  @ApiQuery({ name: 'zone', required: false, description: 'volumes in this zone' })
  @ApiQuery({ name: 'phase', required: false, description: 'volumes and claims in this phase' })
  @ApiQuery({ name: 'storageClass', required: false, description: 'volumes and claims of this class' })
  @ApiQuery({ name: 'namespace', required: false, description: 'claims of this namespace' })
  @ApiQuery({
    name: 'step',
    required: false,
    type: Number,
    description: 'events and phase changes of this step',
  })
  @ApiQuery({
    name: 'type',
    required: false,
    enum: ['Normal', 'Warning'],
    description: 'events of this type',
  })
  @ApiOkResponse({
    type: RunStorageView,
    description:
      'A simulate run with a scenario: the volumes and claims it ended with, its storage events per step and the data-loss report (docs/storage-what-ifs.md); 409 storage_unavailable for other runs',
  })
  storage(@CurrentTenant() auth: TenantAuth, @Param('id', runId()) id: string, @Query() query: unknown) {
    return this.runs.storage(auth.tenantId, id, parseQuery(storageQuerySchema, query));
  }

  @Get(':id/placements')
  @RequireScope('read')
  @ApiOkResponse({
    type: PlacementPage,
    description: 'Filter by status, node, namespace, ownerKind, ownerName; cursor-paginated',
  })
  placements(@CurrentTenant() auth: TenantAuth, @Param('id', runId()) id: string, @Query() query: unknown) {
    return this.runs.placements(auth.tenantId, id, parseQuery(placementQuerySchema, query));
  }

  @Get(':id/unschedulable')
  @RequireScope('read')
  @ApiOkResponse({ type: [UnschedulableGroup] })
  unschedulable(@CurrentTenant() auth: TenantAuth, @Param('id', runId()) id: string) {
    return this.runs.unschedulable(auth.tenantId, id);
  }

  @Get(':id/pods/:namespace/:name/explanation')
  @RequireScope('read')
  @ApiQuery({ name: 'detail', required: false, enum: ['compact', 'full'] })
  @ApiQuery({ name: 'node', required: false, description: "one node's filter verdict and plugin scores" })
  @ApiOkResponse({
    description:
      "The engine's explanation for one pod: the stored compact record, or with ?detail=full (or ?node=NAME) the full record recomputed by replaying the run up to the pod",
  })
  explanation(
    @CurrentTenant() auth: TenantAuth,
    @Param('id', runId()) id: string,
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Query() query: unknown,
  ) {
    return this.runs.explanation(
      auth.tenantId,
      id,
      namespace,
      name,
      parseQuery(explanationQuerySchema, query),
    );
  }
}
