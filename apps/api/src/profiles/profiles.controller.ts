import { Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { ApiRequest as Request } from '../common/http-types';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { parseBodyDocument } from '../common/body-parsing';
import { parseQuery } from '../common/zod-query';
import { profileUploadQuerySchema, ProfileView } from './profile.model';
import { ProfilesService } from './profiles.service';

@ApiTags('profiles')
@ApiBearerAuth()
@Controller('v1/profiles')
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  @Post()
  @RequireScope('write')
  @ApiConsumes('application/yaml', 'application/json')
  @ApiBody({
    description: 'A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1)',
    schema: { type: 'object' },
  })
  @ApiQuery({ name: 'name', required: true })
  @ApiQuery({ name: 'description', required: false })
  @ApiCreatedResponse({ type: ProfileView, description: 'Each upload is a new immutable version' })
  upload(@CurrentTenant() auth: TenantAuth, @Query() query: unknown, @Req() req: Request) {
    const { name, description } = parseQuery(profileUploadQuerySchema, query);
    return this.profiles.upload(auth.tenantId, name, description, parseBodyDocument(req));
  }

  @Get()
  @RequireScope('read')
  @ApiOkResponse({
    type: [ProfileView],
    description: 'Latest version of each usable profile, built-ins included',
  })
  list(@CurrentTenant() auth: TenantAuth) {
    return this.profiles.list(auth.tenantId);
  }

  @Get(':ref')
  @RequireScope('read')
  @ApiOkResponse({
    type: ProfileView,
    description: '"name" or "name@latest" = latest version; "name@3" = version 3',
  })
  get(@CurrentTenant() auth: TenantAuth, @Param('ref') ref: string) {
    return this.profiles.get(auth.tenantId, ref);
  }

  @Get(':name/versions')
  @RequireScope('read')
  @ApiOkResponse({ type: [ProfileView] })
  versions(@CurrentTenant() auth: TenantAuth, @Param('name') name: string) {
    return this.profiles.versions(auth.tenantId, name);
  }
}
