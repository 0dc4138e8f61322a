import { Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { parseBodyDocument } from '../common/body-parsing';
import type { ApiRequest as Request } from '../common/http-types';
import { ResourceIdPipe } from '../common/id-param.pipe';
import { SubmitSweepBody, submitSweepSchema, SweepView } from './sweep.model';
import { SweepsService } from './sweeps.service';

@ApiTags('sweeps')
@ApiBearerAuth()
@Controller('v1/sweeps')
export class SweepsController {
  constructor(private readonly sweeps: SweepsService) {}

  @Post()
  @RequireScope('write')
  @HttpCode(202)
  @ApiBody({ type: SubmitSweepBody })
  @ApiAcceptedResponse({
    type: SweepView,
    description: 'Parent and child runs recorded and queued; poll GET /v1/sweeps/{id}',
  })
  submit(@CurrentTenant() auth: TenantAuth, @Req() req: Request) {
    return this.sweeps.submit(auth.tenantId, submitSweepSchema.parse(parseBodyDocument(req)));
  }

  @Get(':id')
  @RequireScope('read')
  @ApiOkResponse({ type: SweepView })
  get(@CurrentTenant() auth: TenantAuth, @Param('id', new ResourceIdPipe('Sweep')) id: string) {
    return this.sweeps.get(auth.tenantId, id);
  }
}
