/**
 * The timeline document (docs/timeline.md): what arrives and what changes in the cluster at which
 * simulated time. Validated with zod so every error names the field it is about; generated
 * arrivals (bursts, Poisson processes) are expanded here with the run's seeded RNG, so the same
 * document and seed always give the same pods at the same times.
 */
import { SeededRandom, tryParseQuantity, type Node, type Pod, type Taint } from '@schedlab/k8s';
import { nodeTemplateSchema, stepSchema, type NodeTemplate } from '@schedlab/scenarios';
import type { z } from 'zod';
import { zodLibrary } from '../zod-library';

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "90s", "10m", "1h30m", "1d", "250ms" or a number of seconds → milliseconds; undefined if malformed. */
export function parseDurationMs(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input * 1000 : undefined;
  const text = input.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, value, , unit] of text.matchAll(/(\d+(\.\d+)?)(ms|s|m|h|d)/g))
    total += Number(value) * DURATION_UNITS[unit];
  return total;
}

export const EVENT_KINDS = [
  'arrive',
  'burst',
  'poisson',
  'addNode',
  'removeNode',
  'cordon',
  'uncordon',
  'taint',
  'untaint',
  'ungate',
  'deletePod',
  'step',
] as const;

/**
 * The timeline document's schema. Built on first use: every process that loads @schedlab/analysis
 * (the CLI's simulate too) would otherwise pay for its zod schemas and for loading
 * @schedlab/scenarios, whose step and node template schemas it embeds.
 */
function buildTimelineSchema() {
  const z = zodLibrary();
  const duration = z
    .union([z.string(), z.number()])
    .refine(
      (v) => parseDurationMs(v) !== undefined,
      'must be a duration such as "90s", "10m", "1h30m" or seconds',
    );

  /** When an event happens: a duration after the start, or a time of day ("09:00") on the start's date (UTC). */
  const instant = z
    .union([z.string(), z.number()])
    .refine(
      (v) =>
        parseDurationMs(v) !== undefined || (typeof v === 'string' && /^\d{1,2}:\d{2}(:\d{2})?$/.test(v)),
      'must be a duration after the start ("120s", "1h") or a time of day ("09:00")',
    );

  const objectValue = z.record(z.string(), z.unknown());
  const resourceList = z.record(
    z.string(),
    z
      .union([z.string(), z.number()])
      .refine((v) => tryParseQuantity(v) !== undefined, 'must be a quantity such as "500m" or "1Gi"'),
  );
  const podName = z.string().regex(/^[^/]+\/[^/]+$|^[^/]+$/, 'must be "namespace/name" or "name"');

  const arrival = {
    /** A pod template name (podTemplates) or a whole Pod object. */
    template: z.string().optional(),
    pod: objectValue.optional(),
    /** Pods run this long once bound, then complete and free their resources (a Job's pod). */
    runFor: duration.optional(),
    /** Generated names are `<namePrefix>-<n>`; default the template's name. */
    namePrefix: z.string().optional(),
  };

  const taint = z.strictObject({
    key: z.string().min(1),
    value: z.string().optional(),
    effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
  });

  const eventSchema = z
    .strictObject({
      at: instant,
      /** Explicit arrivals: `count` pods (default 1) of the template or pod, at `at`. */
      arrive: z
        .strictObject({ ...arrival, count: z.number().int().min(1).max(1_000_000).optional() })
        .optional(),
      /** N pods at once. */
      burst: z.strictObject({ ...arrival, count: z.number().int().min(1).max(1_000_000) }).optional(),
      /** Arrivals as a Poisson process from `at` for `duration`, `perMinute` on average (seeded). */
      poisson: z
        .strictObject({ ...arrival, perMinute: z.number().positive().max(1_000_000), duration })
        .optional(),
      addNode: objectValue.optional(),
      removeNode: z.string().min(1).optional(),
      cordon: z.string().min(1).optional(),
      uncordon: z.string().min(1).optional(),
      taint: z.strictObject({ node: z.string().min(1), taints: z.array(taint).min(1) }).optional(),
      untaint: z
        .strictObject({ node: z.string().min(1), keys: z.array(z.string().min(1)).min(1) })
        .optional(),
      /** Lifts scheduling gates of a pending pod (all of them unless `gates` names some). */
      ungate: z.strictObject({ pod: podName, gates: z.array(z.string()).optional() }).optional(),
      /** Deletes a pod (pending or running) at `at`. */
      deletePod: podName.optional(),
      /** Any scenario step (docs/scenarios.md), applied at `at`. */
      step: stepSchema.optional(),
    })
    .superRefine((e, ctx) => {
      const kinds = EVENT_KINDS.filter((k) => e[k] !== undefined);
      if (kinds.length !== 1)
        ctx.addIssue({
          code: 'custom',
          message:
            kinds.length === 0
              ? `needs one of ${EVENT_KINDS.join(', ')}`
              : `has ${kinds.join(' and ')}: one event per entry`,
        });
      for (const k of ['arrive', 'burst', 'poisson'] as const) {
        const a = e[k];
        if (a && (a.template === undefined) === (a.pod === undefined))
          ctx.addIssue({ code: 'custom', path: [k], message: 'needs either template or pod' });
      }
    });

  return z.strictObject({
    apiVersion: z.string().optional(),
    kind: z.literal('Timeline').optional(),
    /** The simulated clock's start (RFC 3339); default 2030-01-01T00:00:00Z. */
    start: z.string().datetime({ offset: true }).optional(),
    /** How long to run; default until nothing is pending and no event is left. */
    duration: duration.optional(),
    /** Time step of the pending and utilization series; default 60s. */
    sampleEvery: duration.optional(),
    /** The unschedulable pool's timeout (kube-scheduler --pod-max-in-unschedulable-pods-duration); default 300. */
    podMaxInUnschedulablePodsSeconds: z.number().int().positive().optional(),
    /** Node templates the scenario steps' addNodes refer to (as in a scenario file). */
    nodeTemplates: z.array(nodeTemplateSchema).optional(),
    /**
     * What the kubelets enforce when a bound pod is admitted: capacity − systemReserved −
     * kubeReserved − evictionHard per resource, for the named nodes (every node when `nodes` is
     * absent). A pod the scheduler placed but the kubelet cannot admit fails as OutOf<resource>.
     */
    kubelet: z
      .array(
        z.strictObject({
          nodes: z.array(z.string().min(1)).optional(),
          systemReserved: resourceList.optional(),
          kubeReserved: resourceList.optional(),
          evictionHard: resourceList.optional(),
        }),
      )
      .optional(),
    /** Named pod templates (Pod objects or pod specs) the arrivals refer to. */
    podTemplates: z.record(z.string(), objectValue).optional(),
    events: z.array(eventSchema),
  });
}

let builtSchema: ReturnType<typeof buildTimelineSchema> | undefined;
const timelineSchema = () => (builtSchema ??= buildTimelineSchema());

export type TimelineDocument = z.infer<ReturnType<typeof timelineSchema>>;

/** The published JSON Schema of a timeline file (docs/timeline.schema.json is generated from it). */
export function timelineJsonSchema(): Record<string, unknown> {
  return zodLibrary().toJSONSchema(timelineSchema(), { unrepresentable: 'any' }) as Record<string, unknown>;
}
export type TimelineEventInput = TimelineDocument['events'][number];

export class TimelineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimelineError';
  }
}

/** What happens at one instant, once the document is expanded (arrivals are one pod each). */
export type TimelineAction =
  | { kind: 'arrive'; pod: Pod; runForMs?: number }
  | { kind: 'addNode'; node: Node }
  | { kind: 'removeNode'; node: string }
  | { kind: 'cordon' | 'uncordon'; node: string }
  | { kind: 'taint'; node: string; taints: Taint[] }
  | { kind: 'untaint'; node: string; keys: string[] }
  | { kind: 'ungate'; pod: string; gates?: string[] }
  | { kind: 'deletePod'; pod: string }
  | { kind: 'step'; step: unknown };

export interface TimedAction {
  /** Milliseconds after the start. */
  at: number;
  action: TimelineAction;
}

export interface Timeline {
  startMs: number;
  durationMs?: number;
  sampleEveryMs: number;
  podMaxInUnschedulablePodsSeconds?: number;
  nodeTemplates: NodeTemplate[];
  kubelet: NonNullable<TimelineDocument['kubelet']>;
  /** In time order; equal times keep the document's order. */
  actions: TimedAction[];
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)),
    '',
  );
}

/** Validates and expands a timeline document; errors name the field ("events[2].burst.count: …"). */
export function parseTimeline(input: unknown, seed = 0): Timeline {
  const parsed = timelineSchema().safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TimelineError(`${fieldPath(issue.path) || 'timeline'}: ${issue.message}`);
  }
  const doc = parsed.data;
  const startMs = Date.parse(doc.start ?? '2030-01-01T00:00:00Z');
  const dayStart = Math.floor(startMs / 86_400_000) * 86_400_000;
  const rng = new SeededRandom(seed);
  const actions: TimedAction[] = [];
  const usedNames = new Map<string, number>();

  const offsetOf = (at: string | number, field: string): number => {
    const d = parseDurationMs(at);
    if (d !== undefined) return d;
    const [h, m, s = '0'] = String(at).split(':');
    const t = dayStart + ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 - startMs;
    if (t < 0) throw new TimelineError(`${field}: ${at} is before the start (${doc.start})`);
    return t;
  };

  const podOf = (a: { template?: string; pod?: Record<string, unknown> }, field: string): Pod => {
    if (a.pod) return asPod(a.pod);
    const tpl = doc.podTemplates?.[a.template!];
    if (!tpl) throw new TimelineError(`${field}.template: no pod template "${a.template}" in podTemplates`);
    return asPod(tpl);
  };

  const named = (pod: Pod, prefix: string | undefined, n: number): Pod => {
    const base = prefix ?? pod.metadata?.name ?? 'pod';
    let name = n === 1 && !prefix ? base : `${base}-${n}`;
    const ns = pod.metadata?.namespace ?? 'default';
    // Arrivals from several entries may share a prefix: later ones continue the numbering.
    while (usedNames.has(`${ns}/${name}`)) name = `${base}-${n}-${usedNames.get(`${ns}/${name}`)}`;
    usedNames.set(`${ns}/${name}`, 1);
    const { uid: _uid, ...meta } = pod.metadata ?? {};
    return { ...pod, metadata: { ...meta, name, namespace: ns } };
  };

  doc.events.forEach((e, i) => {
    const field = `events[${i}]`;
    const at = offsetOf(e.at, `${field}.at`);
    const push = (offset: number, action: TimelineAction) => actions.push({ at: offset, action });
    const arrivals = (
      a: { template?: string; pod?: Record<string, unknown>; runFor?: string | number; namePrefix?: string },
      kind: string,
      times: number[],
    ) => {
      const pod = podOf(a, `${field}.${kind}`);
      const runForMs = a.runFor === undefined ? undefined : parseDurationMs(a.runFor);
      // Several pods are named after the template's pod (or the template) with a number each.
      const prefix = a.namePrefix ?? (times.length > 1 ? (pod.metadata?.name ?? a.template) : undefined);
      times.forEach((t, k) =>
        push(t, {
          kind: 'arrive',
          pod: named(pod, prefix, times.length > 1 || prefix ? k + 1 : 1),
          runForMs,
        }),
      );
    };
    if (e.arrive) arrivals(e.arrive, 'arrive', Array(e.arrive.count ?? 1).fill(at));
    else if (e.burst) arrivals(e.burst, 'burst', Array(e.burst.count).fill(at));
    else if (e.poisson) {
      const end = at + parseDurationMs(e.poisson.duration)!;
      const meanGapMs = 60_000 / e.poisson.perMinute;
      const times: number[] = [];
      // Exponential gaps from the run's seeded stream; rounded to the millisecond.
      for (let t = at + Math.round(-Math.log(1 - rng.next()) * meanGapMs); t < end;) {
        times.push(t);
        t += Math.round(-Math.log(1 - rng.next()) * meanGapMs);
      }
      if (times.length > 0) arrivals(e.poisson, 'poisson', times);
    } else if (e.addNode) push(at, { kind: 'addNode', node: e.addNode as unknown as Node });
    else if (e.removeNode) push(at, { kind: 'removeNode', node: e.removeNode });
    else if (e.cordon) push(at, { kind: 'cordon', node: e.cordon });
    else if (e.uncordon) push(at, { kind: 'uncordon', node: e.uncordon });
    else if (e.taint) push(at, { kind: 'taint', node: e.taint.node, taints: e.taint.taints as Taint[] });
    else if (e.untaint) push(at, { kind: 'untaint', node: e.untaint.node, keys: e.untaint.keys });
    else if (e.ungate) push(at, { kind: 'ungate', pod: qualified(e.ungate.pod), gates: e.ungate.gates });
    else if (e.deletePod) push(at, { kind: 'deletePod', pod: qualified(e.deletePod) });
    else if (e.step) push(at, { kind: 'step', step: e.step });
  });
  // A stable sort keeps the document's order among equal times.
  actions.sort((a, b) => a.at - b.at);
  return {
    startMs,
    durationMs: doc.duration === undefined ? undefined : parseDurationMs(doc.duration),
    sampleEveryMs: doc.sampleEvery === undefined ? 60_000 : Math.max(1, parseDurationMs(doc.sampleEvery)!),
    podMaxInUnschedulablePodsSeconds: doc.podMaxInUnschedulablePodsSeconds,
    nodeTemplates: doc.nodeTemplates ?? [],
    kubelet: doc.kubelet ?? [],
    actions,
  };
}

const qualified = (key: string) => (key.includes('/') ? key : `default/${key}`);

/** A template may be a Pod or just a pod spec. */
function asPod(o: Record<string, unknown>): Pod {
  const pod = structuredClone(o) as Pod & { containers?: unknown };
  if (pod.kind === 'Pod' || pod.spec) return { ...pod, kind: 'Pod', apiVersion: pod.apiVersion ?? 'v1' };
  return { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: pod as unknown as Pod['spec'] };
}
