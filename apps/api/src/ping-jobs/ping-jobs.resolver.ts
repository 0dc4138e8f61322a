import { Args, ID, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { JobStatus } from '@schedlab/db';
import { PingJobFinishedEvents } from './ping-job-events';
import { createPingJobSchema, PingJobView } from './ping-job.model';
import { PingJobsService } from './ping-jobs.service';
import { OperatorOnly } from '../auth/auth-context';

const FINAL_STATUSES: ReadonlySet<JobStatus> = new Set([JobStatus.SUCCEEDED, JobStatus.FAILED]);

@Resolver(() => PingJobView)
// The foundation's example endpoints act on any tenant id, so only operators may call them.
@OperatorOnly()
export class PingJobsResolver {
  constructor(
    private readonly pingJobs: PingJobsService,
    private readonly finished: PingJobFinishedEvents,
  ) {}

  @Query(() => PingJobView)
  pingJob(@Args('id', { type: () => ID }) id: string) {
    return this.pingJobs.get(id);
  }

  @Mutation(() => PingJobView)
  createPingJob(
    @Args('tenantId', { type: () => ID }) tenantId: string,
    @Args('message', { type: () => String }) message: string,
  ) {
    return this.pingJobs.create(createPingJobSchema.parse({ tenantId, message }));
  }

  @Subscription(() => PingJobView, {
    description: 'The job as it is now, then once more when it succeeds or fails; then completes.',
    resolve: (job: PingJobView) => job,
  })
  pingJobUpdates(@Args('id', { type: () => ID }) id: string): AsyncIterable<PingJobView> {
    const pingJobs = this.pingJobs;
    const finished = this.finished;
    return (async function* () {
      const stop = new AbortController();
      const finishes = finished.listen(stop.signal)[Symbol.asyncIterator]();
      try {
        const current = await pingJobs.get(id);
        yield current;
        if (FINAL_STATUSES.has(current.status)) return;
        for (let next = await finishes.next(); !next.done; next = await finishes.next()) {
          if (next.value === id) {
            yield await pingJobs.get(id);
            return;
          }
        }
      } finally {
        stop.abort();
      }
    })();
  }
}
