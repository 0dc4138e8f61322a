import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { defined } from '../common/graphql-args';
import { ResourceIdPipe } from '../common/id-param.pipe';
import { JsonScalar } from '../common/json.scalar';
import { createdAtCursorOf, pageQuerySchema } from '../common/pagination';
import { toConnection } from '../graphql/connection';
import { perItem, ScenarioConnection } from '../graphql/pages';
import { createScenarioSchema, ScenarioView } from './scenario.model';
import { ScenariosService } from './scenarios.service';

@Resolver(() => ScenarioView)
export class ScenariosResolver {
  constructor(private readonly service: ScenariosService) {}

  @Query(() => ScenarioConnection, { complexity: perItem })
  @RequireScope('read')
  async scenarios(
    @CurrentTenant() auth: TenantAuth,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
  ) {
    const page = pageQuerySchema.parse(defined({ limit: first, cursor: after }));
    return toConnection(await this.service.list(auth.tenantId, page.limit, page.cursor), createdAtCursorOf);
  }

  @Query(() => ScenarioView)
  @RequireScope('read')
  scenario(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, new ResourceIdPipe('Scenario')) id: string,
  ) {
    return this.service.get(auth.tenantId, id);
  }

  @Mutation(() => ScenarioView)
  @RequireScope('write')
  createScenario(
    @CurrentTenant() auth: TenantAuth,
    @Args('name') name: string,
    @Args('document', { type: () => JsonScalar }) document: unknown,
    @Args('snapshotId', { type: () => ID, nullable: true }) snapshotId?: string,
  ) {
    return this.service.create(
      auth.tenantId,
      createScenarioSchema.parse(defined({ name, document, snapshotId })),
    );
  }
}
