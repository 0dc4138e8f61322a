import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { ApiRequest as Request, ApiResponse as Response } from '../common/http-types';
import { z } from 'zod';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { ApiError } from '../common/api-error';
import { takeBodyText } from '../common/body-parsing';
import { ResourceIdPipe } from '../common/id-param.pipe';
import { pageQuerySchema } from '../common/pagination';
import { parseQuery } from '../common/zod-query';
import {
  parseLabelList,
  snapshotImportQuerySchema,
  SnapshotImportResult,
  SnapshotPage,
  SnapshotView,
} from './snapshot.model';
import { SnapshotsService } from './snapshots.service';

const deleteQuerySchema = z.object({ hard: z.enum(['true', 'false']).optional() }).strict();

@ApiTags('snapshots')
@ApiBearerAuth()
@Controller('v1/snapshots')
export class SnapshotsController {
  constructor(private readonly snapshots: SnapshotsService) {}

  @Post()
  @RequireScope('write')
  @ApiConsumes('application/json', 'application/yaml')
  @ApiBody({
    description: '`kubectl get nodes,pods,… -A -o json` (a List) or multi-document YAML',
    schema: { type: 'string' },
  })
  @ApiQuery({ name: 'name', required: true })
  @ApiQuery({ name: 'labels', required: false, description: 'e.g. env=prod,team=payments' })
  @ApiOkResponse({
    type: SnapshotImportResult,
    description: '201 when stored; 200 with duplicate=true when identical content already exists',
  })
  async import(
    @CurrentTenant() auth: TenantAuth,
    @Query() query: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { name, labels } = parseQuery(snapshotImportQuerySchema, query);
    const text = takeBodyText(req);
    if (!text) throw ApiError.badRequest('missing_body', 'Send the cluster dump as the request body');
    const result = await this.snapshots.import(auth.tenantId, { name, labels: parseLabelList(labels) }, text);
    res.status(result.duplicate ? 200 : 201);
    return { ...result.snapshot, duplicate: result.duplicate };
  }

  @Get()
  @RequireScope('read')
  @ApiOkResponse({ type: SnapshotPage })
  list(@CurrentTenant() auth: TenantAuth, @Query() query: unknown) {
    const { limit, cursor } = parseQuery(pageQuerySchema, query);
    return this.snapshots.list(auth.tenantId, limit, cursor);
  }

  @Get(':id')
  @RequireScope('read')
  @ApiOkResponse({ type: SnapshotView })
  get(@CurrentTenant() auth: TenantAuth, @Param('id', new ResourceIdPipe('Snapshot')) id: string) {
    return this.snapshots.get(auth.tenantId, id);
  }

  @Delete(':id')
  @RequireScope('write')
  @HttpCode(204)
  @ApiQuery({ name: 'hard', required: false, description: 'true removes the row; default is a soft delete' })
  @ApiNoContentResponse()
  async delete(
    @CurrentTenant() auth: TenantAuth,
    @Param('id', new ResourceIdPipe('Snapshot')) id: string,
    @Query() query: unknown,
  ) {
    const { hard } = parseQuery(deleteQuerySchema, query);
    await this.snapshots.delete(auth.tenantId, id, hard === 'true');
  }
}
