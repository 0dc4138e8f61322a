import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { parseBodyText } from '../common/body-parsing';
import { defined } from '../common/graphql-args';
import { profileUploadQuerySchema, ProfileView } from './profile.model';
import { ProfilesService } from './profiles.service';

@Resolver(() => ProfileView)
export class ProfilesResolver {
  constructor(private readonly service: ProfilesService) {}

  @Query(() => [ProfileView])
  @RequireScope('read')
  profiles(@CurrentTenant() auth: TenantAuth) {
    return this.service.list(auth.tenantId);
  }

  @Query(() => ProfileView, { description: '"name", "name@latest" or "name@3"' })
  @RequireScope('read')
  profile(@CurrentTenant() auth: TenantAuth, @Args('ref') ref: string) {
    return this.service.get(auth.tenantId, ref);
  }

  @Mutation(() => ProfileView, { description: 'config: a KubeSchedulerConfiguration as YAML or JSON text' })
  @RequireScope('write')
  uploadProfile(
    @CurrentTenant() auth: TenantAuth,
    @Args('name') name: string,
    @Args('config') config: string,
    @Args('description', { nullable: true }) description?: string,
  ) {
    const query = profileUploadQuerySchema.parse(defined({ name, description }));
    return this.service.upload(auth.tenantId, query.name, query.description, parseBodyText(config, 'yaml'));
  }
}
