import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { defined } from '../common/graphql-args';
import { ResourceIdPipe } from '../common/id-param.pipe';
import { ApiKeyView, createApiKeySchema, CreatedApiKeyView } from './api-key.model';
import { ApiKeysService } from './api-keys.service';

@Resolver(() => ApiKeyView)
export class ApiKeysResolver {
  constructor(private readonly keys: ApiKeysService) {}

  @Query(() => [ApiKeyView])
  @RequireScope('admin')
  apiKeys(@CurrentTenant() auth: TenantAuth) {
    return this.keys.list(auth.tenantId);
  }

  @Mutation(() => CreatedApiKeyView)
  @RequireScope('admin')
  createApiKey(
    @CurrentTenant() auth: TenantAuth,
    @Args('name') name: string,
    @Args('scopes', { type: () => [String], nullable: true }) scopes?: string[],
  ) {
    return this.keys.create(auth.tenantId, createApiKeySchema.parse(defined({ name, scopes })));
  }

  @Mutation(() => ApiKeyView)
  @RequireScope('admin')
  revokeApiKey(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, new ResourceIdPipe('API key')) id: string,
  ) {
    return this.keys.revoke(auth.tenantId, id);
  }
}
