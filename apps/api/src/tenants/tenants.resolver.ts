import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { createTenantSchema, TenantView } from './tenant.model';
import { TenantsService } from './tenants.service';

@Resolver(() => TenantView)
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
