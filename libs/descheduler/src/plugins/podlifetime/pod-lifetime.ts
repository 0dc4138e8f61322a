/**
 * PodLifeTime: evicts, oldest first across all nodes, pods older than maxPodLifeTimeSeconds on
 * the snapshot's clock and/or in the given states, conditions or exit codes.
 */
import type { ContainerStatus, Pod, PodCondition } from 'kubernetes-types/core/v1';
import { z } from 'zod';
import { int32Schema, namespacesSchema, podFilterArgsShape, uintSchema } from '../../api/schema';
import {
  allPodsOnNode,
  creationTimeOf,
  ownerReferencesOf,
  podFilterOf,
  sortPodsByAge,
} from '../../framework/pods';
import type { DeschedulePlugin, Handle } from '../../framework/types';

export const POD_LIFE_TIME = 'PodLifeTime';

export const POD_LIFE_TIME_STATES = [
  'Running',
  'Pending',
  'Succeeded',
  'Failed',
  'Unknown',
  'NodeAffinity',
  'NodeLost',
  'Shutdown',
  'UnexpectedAdmissionError',
  'PodInitializing',
  'ContainerCreating',
  'ImagePullBackOff',
  'CrashLoopBackOff',
  'CreateContainerConfigError',
  'ErrImagePull',
  'CreateContainerError',
  'InvalidImageName',
  'OOMKilled',
  'Error',
  'Completed',
  'DeadlineExceeded',
  'Evicted',
  'ContainerCannotRun',
  'StartError',
];

const conditionFilterSchema = z.strictObject({
  type: z.string().optional(),
  status: z.string().optional(),
  reason: z.string().optional(),
  minTimeSinceLastTransitionSeconds: uintSchema.optional(),
});

export const podLifeTimeArgsSchema = z
  .strictObject({
    ...podFilterArgsShape,
    ownerKinds: namespacesSchema.optional(),
    maxPodLifeTimeSeconds: uintSchema.optional(),
    states: z.array(z.string()).optional(),
    conditions: z.array(conditionFilterSchema).optional(),
    exitCodes: z.array(int32Schema).optional(),
    includingInitContainers: z.boolean().default(false),
    includingEphemeralContainers: z.boolean().default(false),
  })
  .superRefine((a, ctx) => {
    if (a.ownerKinds?.include?.length && a.ownerKinds.exclude?.length)
      ctx.addIssue({
        code: 'custom',
        path: ['ownerKinds'],
        message: 'only one of Include/Exclude ownerKinds can be set',
      });
    if (a.states?.length && !a.states.every((s) => POD_LIFE_TIME_STATES.includes(s)))
      ctx.addIssue({
        code: 'custom',
        path: ['states'],
        message: `states must be one of [${[...POD_LIFE_TIME_STATES].sort().join(' ')}]`,
      });
    a.conditions?.forEach((c, i) => {
      if (!c.type && !c.status && !c.reason && c.minTimeSinceLastTransitionSeconds === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['conditions', i],
          message: `conditions[${i}]: at least one of type, status, reason, or minTimeSinceLastTransitionSeconds must be set`,
        });
    });
    if (
      a.maxPodLifeTimeSeconds === undefined &&
      !a.states?.length &&
      !a.conditions?.length &&
      !a.exitCodes?.length
    )
      ctx.addIssue({
        code: 'custom',
        path: [],
        message:
          'at least one filtering criterion must be specified (maxPodLifeTimeSeconds, states, conditions, or exitCodes)',
      });
  });

export type PodLifeTimeArgs = z.output<typeof podLifeTimeArgsSchema>;
type ConditionFilter = NonNullable<PodLifeTimeArgs['conditions']>[number];

const inState = (statuses: readonly ContainerStatus[] | undefined, states: ReadonlySet<string>) =>
  (statuses ?? []).some(
    (cs) =>
      (cs.state?.waiting?.reason !== undefined && states.has(cs.state.waiting.reason)) ||
      (cs.state?.terminated?.reason !== undefined && states.has(cs.state.terminated.reason)),
  );

const exitedWith = (statuses: readonly ContainerStatus[] | undefined, codes: ReadonlySet<number>) =>
  (statuses ?? []).some(
    (cs) => cs.state?.terminated !== undefined && codes.has(cs.state.terminated.exitCode),
  );

function conditionMatches(cond: PodCondition, f: ConditionFilter, now: number): boolean {
  if (f.type && cond.type !== f.type) return false;
  if (f.status && cond.status !== f.status) return false;
  if (f.reason && cond.reason !== f.reason) return false;
  if (f.minTimeSinceLastTransitionSeconds !== undefined) {
    const since = Date.parse(cond.lastTransitionTime ?? '');
    if (Number.isNaN(since)) return false;
    const idle = now - since;
    if (idle < 0 || Math.floor(idle / 1000) < f.minTimeSinceLastTransitionSeconds) return false;
  }
  return true;
}

export function createPodLifeTimePlugin(args: PodLifeTimeArgs, handle: Handle): DeschedulePlugin {
  const checks: ((pod: Pod) => boolean)[] = [handle.evictor.filter, handle.evictor.preEvictionFilter];
  const ageSeconds = (pod: Pod) => (handle.now() - creationTimeOf(pod)) / 1000;
  if (args.maxPodLifeTimeSeconds !== undefined) {
    const max = args.maxPodLifeTimeSeconds;
    checks.push((pod) => {
      const age = ageSeconds(pod);
      return age >= 0 && Math.floor(age) > max;
    });
  }
  if (args.states?.length) {
    const states = new Set(args.states);
    checks.push(
      (pod) =>
        states.has(pod.status?.phase ?? '') ||
        states.has(pod.status?.reason ?? '') ||
        inState(pod.status?.containerStatuses, states) ||
        (args.includingInitContainers && inState(pod.status?.initContainerStatuses, states)) ||
        (args.includingEphemeralContainers && inState(pod.status?.ephemeralContainerStatuses, states)),
    );
  }
  if (args.ownerKinds?.include?.length) {
    const kinds = new Set(args.ownerKinds.include);
    checks.push((pod) => ownerReferencesOf(pod).some((o) => kinds.has(o.kind)));
  } else if (args.ownerKinds?.exclude?.length) {
    const kinds = new Set(args.ownerKinds.exclude);
    checks.push((pod) => !ownerReferencesOf(pod).some((o) => kinds.has(o.kind)));
  }
  if (args.conditions?.length) {
    const filters = args.conditions;
    checks.push((pod) =>
      filters.some((f) => (pod.status?.conditions ?? []).some((c) => conditionMatches(c, f, handle.now()))),
    );
  }
  if (args.exitCodes?.length) {
    const codes = new Set(args.exitCodes);
    checks.push(
      (pod) =>
        exitedWith(pod.status?.containerStatuses, codes) ||
        (args.includingInitContainers && exitedWith(pod.status?.initContainerStatuses, codes)),
    );
  }
  const podFilter = podFilterOf(args, ...checks);

  return {
    name: POD_LIFE_TIME,
    deschedule(nodes) {
      const pods = sortPodsByAge(
        nodes.flatMap((n) => allPodsOnNode(handle, n.metadata?.name ?? '', podFilter)),
      );
      for (const pod of pods) {
        const evicted = handle.evictor.evict(pod, {
          strategy: POD_LIFE_TIME,
          reason: '',
          detail: `pod is ${Math.floor(ageSeconds(pod))}s old`,
        });
        // A node limit only skips that pod here: the list spans nodes.
        if (!evicted && handle.evictor.lastRefusal() === 'total-limit') return;
      }
    },
  };
}
