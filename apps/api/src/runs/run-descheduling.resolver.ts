import { Args, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { RunResultView } from './run.model';
import { DeschedulingEvictionView, RunDeschedulingView, runDeschedulingOf } from './run-descheduling.model';

/** `RunResult.descheduling`: read from the stored result the parent already holds (no extra query). */
@Resolver(() => RunResultView)
export class RunResultDeschedulingResolver {
  @ResolveField(() => RunDeschedulingView, {
    nullable: true,
    description:
      'A deschedule run: its evictions with where each pod went, rounds, oscillation, and the figures before and after (null for other runs)',
  })
  descheduling(@Parent() result: RunResultView): RunDeschedulingView | null {
    return runDeschedulingOf(result.analysis);
  }
}

const text = (description: string) => ({ nullable: true, type: () => String, description });

/** The evictions narrowed by exact-match arguments. */
@Resolver(() => RunDeschedulingView)
export class RunDeschedulingFieldsResolver {
  @ResolveField(() => [DeschedulingEvictionView])
  evictions(
    @Parent() descheduling: RunDeschedulingView,
    @Args('strategy', text('only evictions by this plugin')) strategy?: string | null,
    @Args('node', text('only evictions from this node')) node?: string | null,
    @Args('outcome', text('only rescheduled, unschedulable or lost pods')) outcome?: string | null,
  ): DeschedulingEvictionView[] {
    return descheduling.evictions.filter(
      (e) =>
        (strategy == null || e.strategy === strategy) &&
        (node == null || e.oldNode === node) &&
        (outcome == null || e.outcome === outcome),
    );
  }
}
