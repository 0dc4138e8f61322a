/**
 * RemovePodsHavingTooManyRestarts: evicts, most restarted first, pods whose containers (and init
 * containers when asked) restarted at least podRestartThreshold times, optionally only in the
 * given states.
 */
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import { z } from 'zod';
import { int32Schema, podFilterArgsShape } from '../../api/schema';
import { evictEach } from '../../framework/evict-loop';
import { allPodsOnNode, podFilterOf } from '../../framework/pods';
import type { DeschedulePlugin, Handle } from '../../framework/types';

export const REMOVE_PODS_HAVING_TOO_MANY_RESTARTS = 'RemovePodsHavingTooManyRestarts';
const ALLOWED_STATES = ['CrashLoopBackOff', 'Running'];

export const tooManyRestartsArgsSchema = z
  .strictObject({
    ...podFilterArgsShape,
    // Upstream defaults it to 0, which validation then refuses: a threshold must be given.
    podRestartThreshold: int32Schema.default(0),
    includingInitContainers: z.boolean().default(false),
    states: z
      .array(z.string())
      .refine((s) => s.every((x) => ALLOWED_STATES.includes(x)), {
        error: `states must be one of [${ALLOWED_STATES.join(' ')}]`,
      })
      .optional(),
  })
  .superRefine((a, ctx) => {
    if (a.podRestartThreshold < 1)
      ctx.addIssue({
        code: 'custom',
        path: ['podRestartThreshold'],
        message: 'invalid PodsHavingTooManyRestarts threshold',
      });
  });

export type TooManyRestartsArgs = z.output<typeof tooManyRestartsArgsSchema>;

const restartsIn = (statuses: readonly ContainerStatus[] | undefined) =>
  (statuses ?? []).reduce((sum, cs) => sum + (cs.restartCount ?? 0), 0);

export function podRestarts(pod: Pod, includingInitContainers: boolean): number {
  return (
    restartsIn(pod.status?.containerStatuses) +
    (includingInitContainers ? restartsIn(pod.status?.initContainerStatuses) : 0)
  );
}

/** Some container waits for one of the reasons. */
export const waitingIn = (statuses: readonly ContainerStatus[] | undefined, states: ReadonlySet<string>) =>
  (statuses ?? []).some(
    (cs) => cs.state?.waiting?.reason !== undefined && states.has(cs.state.waiting.reason),
  );

export function createTooManyRestartsPlugin(args: TooManyRestartsArgs, handle: Handle): DeschedulePlugin {
  const states = new Set(args.states ?? []);
  const podFilter = podFilterOf(
    args,
    handle.evictor.filter,
    handle.evictor.preEvictionFilter,
    (pod) => podRestarts(pod, args.includingInitContainers) >= args.podRestartThreshold,
    (pod) =>
      states.size === 0 ||
      states.has(pod.status?.phase ?? '') ||
      waitingIn(pod.status?.containerStatuses, states) ||
      (args.includingInitContainers && waitingIn(pod.status?.initContainerStatuses, states)),
  );
  return {
    name: REMOVE_PODS_HAVING_TOO_MANY_RESTARTS,
    deschedule(nodes) {
      for (const node of nodes) {
        const pods = allPodsOnNode(handle, node.metadata?.name ?? '', podFilter);
        const restarts = new Map(pods.map((p) => [p, podRestarts(p, args.includingInitContainers)]));
        pods.sort((a, b) => (restarts.get(b) ?? 0) - (restarts.get(a) ?? 0));
        const end = evictEach(handle, pods, (pod) => ({
          strategy: REMOVE_PODS_HAVING_TOO_MANY_RESTARTS,
          reason: '',
          detail: `containers restarted ${restarts.get(pod)} times (threshold ${args.podRestartThreshold})`,
        }));
        if (end === 'total-limit') return;
      }
    },
  };
}
