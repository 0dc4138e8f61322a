import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { defined } from '../common/graphql-args';
import { ResourceIdPipe } from '../common/id-param.pipe';
import { JsonScalar } from '../common/json.scalar';
import { createdAtCursorOf, pageQuerySchema } from '../common/pagination';
import { toConnection } from '../graphql/connection';
import { perItem, SnapshotImportView, SnapshotConnection } from '../graphql/pages';
import { labelsSchema, snapshotImportQuerySchema, SnapshotView } from './snapshot.model';
import { SnapshotsService } from './snapshots.service';

@Resolver(() => SnapshotView)
export class SnapshotsResolver {
  constructor(private readonly service: SnapshotsService) {}

  @Query(() => SnapshotConnection, { complexity: perItem })
  @RequireScope('read')
  async snapshots(
    @CurrentTenant() auth: TenantAuth,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
  ) {
    const page = pageQuerySchema.parse(defined({ limit: first, cursor: after }));
    return toConnection(await this.service.list(auth.tenantId, page.limit, page.cursor), createdAtCursorOf);
  }

  @Query(() => SnapshotView)
  @RequireScope('read')
  snapshot(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, new ResourceIdPipe('Snapshot')) id: string,
  ) {
    return this.service.get(auth.tenantId, id);
  }

  @Mutation(() => SnapshotImportView, {
    description: 'content: a kubectl List (JSON) or multi-document YAML',
  })
  @RequireScope('write')
  importSnapshot(
    @CurrentTenant() auth: TenantAuth,
    @Args('name') name: string,
    @Args('content') content: string,
    @Args('labels', { type: () => JsonScalar, nullable: true }) labels?: Record<string, string>,
  ) {
    snapshotImportQuerySchema.parse({ name });
    return this.service.import(auth.tenantId, { name, labels: labelsSchema.parse(labels ?? {}) }, content);
  }

  @Mutation(() => Boolean)
  @RequireScope('write')
  async deleteSnapshot(
    @CurrentTenant() auth: TenantAuth,
    @Args('id', { type: () => ID }, new ResourceIdPipe('Snapshot')) id: string,
    @Args('hard', { nullable: true }) hard?: boolean,
  ) {
    await this.service.delete(auth.tenantId, id, hard === true);
    return true;
  }
}
