import { Args, Int, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { defined } from '../common/graphql-args';
import { RunResultView } from './run.model';
import {
  filterRunStorage,
  RunStorageView,
  StorageClaimView,
  StorageEventView,
  StoragePhaseChangeView,
  StorageVolumeView,
  runStorageOf,
  storageQuerySchema,
} from './run-storage.model';

/** `RunResult.storage`: read from the stored result the parent already holds (no extra query). */
@Resolver(() => RunResultView)
export class RunResultStorageResolver {
  @ResolveField(() => RunStorageView, {
    nullable: true,
    description:
      'A simulate run with a scenario: the volumes and claims it ended with, its storage events and the data-loss report (null for other runs)',
  })
  storage(@Parent() result: RunResultView): RunStorageView | null {
    return runStorageOf(result.analysis);
  }
}

const text = (description: string) => ({ nullable: true, type: () => String, description });

/** The lists of RunStorage narrowed by exact-match arguments, as REST's `…/storage` query does. */
@Resolver(() => RunStorageView)
export class RunStorageFieldsResolver {
  @ResolveField(() => [StorageVolumeView])
  volumes(
    @Parent() storage: RunStorageView,
    @Args('zone', text('only volumes in this zone')) zone?: string | null,
    @Args('phase', text('only volumes in this phase')) phase?: string | null,
    @Args('storageClass', text('only volumes of this class')) storageClass?: string | null,
  ): StorageVolumeView[] {
    const query = storageQuerySchema.parse(defined({ zone, phase, storageClass }));
    return filterRunStorage(storage, query).volumes;
  }

  @ResolveField(() => [StorageClaimView])
  claims(
    @Parent() storage: RunStorageView,
    @Args('namespace', text('only claims of this namespace')) namespace?: string | null,
    @Args('phase', text('only claims in this phase')) phase?: string | null,
    @Args('storageClass', text('only claims of this class')) storageClass?: string | null,
  ): StorageClaimView[] {
    const query = storageQuerySchema.parse(defined({ namespace, phase, storageClass }));
    return filterRunStorage(storage, query).claims;
  }

  @ResolveField(() => [StorageEventView])
  events(
    @Parent() storage: RunStorageView,
    @Args('step', { nullable: true, type: () => Int, description: "only this step's events" })
    step?: number | null,
    @Args('type', text('only Normal or Warning events')) type?: string | null,
  ): StorageEventView[] {
    const query = storageQuerySchema.parse(defined({ step, type }));
    return filterRunStorage(storage, query).events;
  }

  @ResolveField(() => [StoragePhaseChangeView])
  phaseChanges(
    @Parent() storage: RunStorageView,
    @Args('step', { nullable: true, type: () => Int, description: "only this step's changes" })
    step?: number | null,
  ): StoragePhaseChangeView[] {
    return filterRunStorage(storage, storageQuerySchema.parse(defined({ step }))).phaseChanges;
  }
}
