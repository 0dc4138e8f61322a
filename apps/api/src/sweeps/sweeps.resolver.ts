import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { JsonScalar } from '../common/json.scalar';
import { submitSweepSchema, SweepView } from './sweep.model';
import { SweepsService } from './sweeps.service';

@Resolver()
export class SweepsResolver {
  constructor(private readonly sweeps: SweepsService) {}

  @Query(() => SweepView)
  @RequireScope('read')
  sweep(@CurrentTenant() auth: TenantAuth, @Args('id', { type: () => ID }) id: string) {
    return this.sweeps.get(auth.tenantId, id);
  }

  @Mutation(() => SweepView)
  @RequireScope('write')
  submitSweep(
    @CurrentTenant() auth: TenantAuth,
    @Args('snapshotId', { type: () => ID }) snapshotId: string,
    @Args('profiles', { type: () => [String], nullable: true }) profiles?: string[],
    @Args('seeds', { type: () => [Int], nullable: true }) seeds?: number[],
    @Args('scenarioId', { type: () => ID, nullable: true }) scenarioId?: string,
    @Args('options', { type: () => JsonScalar, nullable: true }) options?: Record<string, unknown>,
  ) {
    const input = Object.fromEntries(
      Object.entries({ snapshotId, profiles, seeds, scenarioId, options }).filter(([, v]) => v != null),
    );
    return this.sweeps.submit(auth.tenantId, submitSweepSchema.parse(input));
  }
}
