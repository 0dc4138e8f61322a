import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { createTenantSchema, TenantView } from './tenant.model';
import { TenantsService } from './tenants.service';
import { OperatorOnly } from '../auth/auth-context';

@Resolver(() => TenantView)
// The foundation's example endpoints act on any tenant id, so only operators may call them.
@OperatorOnly()
export class TenantsResolver {
  constructor(private readonly tenants: TenantsService) {}

  @Query(() => TenantView)
  tenant(@Args('id', { type: () => ID }) id: string) {
    return this.tenants.get(id);
  }

  @Mutation(() => TenantView)
  createTenant(@Args('name', { type: () => String }) name: string) {
    return this.tenants.create(createTenantSchema.parse({ name }));
  }
}
