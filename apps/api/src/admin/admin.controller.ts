import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { ApiRequest as Request } from '../common/http-types';
import { createTenantWithAdminKey, TenantNameTakenError } from '@schedlab/tenancy';
import { PrismaService } from '@schedlab/db';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { OperatorOnly } from '../auth/auth-context';
import { ApiError } from '../common/api-error';
import { parseBodyDocument } from '../common/body-parsing';
import { ResourceIdPipe } from '../common/id-param.pipe';
import { ProfileView } from '../profiles/profile.model';
import { ProfilesService } from '../profiles/profiles.service';

const createTenantSchema = z
  .object({ name: z.string().trim().min(1).max(100).meta({ example: 'acme' }) })
  .strict();
const shareSchema = z.object({ shared: z.boolean() }).strict();

/** The bodies' OpenAPI schemas, derived from the zod schemas that parse them. */
class CreateTenantBody extends createZodDto(createTenantSchema) {}
class ShareProfileBody extends createZodDto(shareSchema) {}

/** Operator endpoints: guarded by OPERATOR_TOKEN, they act across tenants. */
@ApiTags('admin')
@ApiBearerAuth()
@Controller('v1/admin')
@OperatorOnly()
export class AdminController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly profiles: ProfilesService,
  ) {}

  @Post('tenants')
  @ApiBody({ type: CreateTenantBody })
  @ApiCreatedResponse({ description: 'The tenant and its first admin API key (secret shown once)' })
  async createTenant(@Req() req: Request) {
    const { name } = createTenantSchema.parse(parseBodyDocument(req));
    try {
      return await createTenantWithAdminKey(this.prisma, name);
    } catch (error) {
      if (error instanceof TenantNameTakenError)
        throw ApiError.conflict('tenant_exists', error.message, { field: 'name' });
      throw error;
    }
  }

  @Post('profiles/:id/shared')
  @HttpCode(200)
  @ApiBody({ type: ShareProfileBody })
  @ApiOkResponse({ type: ProfileView })
  share(@Param('id', new ResourceIdPipe('Scheduler profile')) id: string, @Req() req: Request) {
    return this.profiles.setShared(id, shareSchema.parse(parseBodyDocument(req)).shared);
  }
}
