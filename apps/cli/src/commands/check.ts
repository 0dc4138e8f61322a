/**
 * `schedlab check`: a policy regression gate for CI. Runs the dump through the same analyses as
 * `simulate` and `capacity` (the @schedlab/analysis pipeline) and judges each expectation of the
 * file; exits 0 when all hold, 1 when one fails (with a diff), 2 on bad input.
 */
import type { Command } from 'commander';
import type * as Yaml from 'yaml';
import { podKeyOf, type KubeObject, type Labels, type Pod } from '@schedlab/k8s';
import { runSimulation, type SimulationFlags } from '../engine/run-simulation';
import { rejectedKey } from '../engine/workloads';
import { describeSkipped } from '../input/cluster-dump';
import { ExitCode, InputFileError, reportFailure } from '../input/errors';
import { readInputFile } from '../input/read-input-file';
import { outputOption } from '../output/analysis';
import { isTableFormat, renderDocument, type OutputFormat } from '../output/document';
import { simulationDocument } from '../output/placements';
import { capacityOf } from './capacity';
import {
  checkCapacity,
  checkMoved,
  checkPlacements,
  checkSchedulable,
  checkUnschedulable,
  type CheckResult,
  type PodFact,
  type RunFacts,
  type Verdict,
} from '../check/evaluate';
import { loadExpectations, type Check } from '../check/expectations';
import { addSimulationOptions, simulationFlags } from './simulation-options';

/** check's exit codes: a failed check is not bad input, so CI can tell the two apart. */
export const CheckExit = { passed: 0, failed: 1, badInput: 2, internal: 3 } as const;

export const CHECK_EXIT_CODES_HELP = `
Exit codes:
  0  every check passed
  1  a check failed; the report says which pods, where, and the scheduler's message
  2  usage or input error (cluster, configuration, expectations, baseline, pod template)
  3  internal error in Schedlab`;

export interface CheckDocument {
  compatibilityVersion: string;
  cluster: string;
  expectations: string;
  passed: boolean;
  summary: { checks: number; passed: number; failed: number };
  checks: CheckResult[];
}

const WORKLOAD_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job']);

/**
 * The labels a pod admission refused would have had: its workload's pod template, the workload
 * being the one whose name (and a dash) starts the pod's, as controllers name their pods. A bare
 * pod refused has none to find.
 */
function templateLabelsOf(pod: string, objects: readonly KubeObject[]): Labels | undefined {
  const [namespace, name] = pod.split('/');
  let owner: KubeObject | undefined;
  for (const o of objects) {
    const ownName = o.metadata?.name ?? '';
    if (!WORKLOAD_KINDS.has(o.kind) || (o.metadata?.namespace ?? 'default') !== namespace) continue;
    if (name.startsWith(`${ownName}-`) && ownName.length > (owner?.metadata?.name?.length ?? -1)) owner = o;
  }
  return (owner as { spec?: { template?: { metadata?: { labels?: Labels } } } } | undefined)?.spec?.template
    ?.metadata?.labels;
}

const labelsField = (labels: Labels | undefined) => (labels ? { labels } : {});

/** The dump as scheduled: every pod with its node or the reason it has none, and node labels. */
function runFacts(flags: SimulationFlags): {
  facts: RunFacts;
  compatibilityVersion: string;
  warnings: string[];
} {
  const run = runSimulation(flags, undefined, { explain: 'summary' });
  const doc = simulationDocument(
    run.result,
    run.dump.state.nodes,
    run.rejected.map((r) => ({ object: rejectedKey(r), message: r.message })),
  );
  const labelsOf = new Map(run.pods.map((p) => [podKeyOf(p), p.metadata?.labels ?? {}]));
  // A running pod a pending one preempted has lost its node.
  const preemptedBy = new Map(doc.placements.flatMap((p) => (p.victims ?? []).map((v) => [v, p.pod])));
  const running: PodFact[] = run.dump.state.runningPods.map((p: Pod): PodFact => {
    const fact = {
      pod: podKeyOf(p),
      namespace: p.metadata?.namespace ?? 'default',
      labels: p.metadata?.labels ?? {},
    };
    const by = preemptedBy.get(fact.pod);
    return by === undefined
      ? { ...fact, state: 'running', node: p.spec?.nodeName ?? null }
      : { ...fact, state: 'preempted', node: null, message: `preempted by ${by} (from ${p.spec?.nodeName})` };
  });
  const handled: PodFact[] = doc.placements.map((p) => ({
    pod: p.pod,
    namespace: p.pod.includes('/') ? p.pod.split('/')[0] : 'default',
    ...labelsField(
      p.outcome === 'rejected' ? templateLabelsOf(p.pod, run.dump.objects) : labelsOf.get(p.pod),
    ),
    state: p.outcome,
    node: p.node,
    ...(p.node === null && (p.message ?? p.error) ? { message: p.message ?? p.error } : {}),
  }));
  return {
    facts: {
      pods: [...running, ...handled],
      nodeLabels: new Map(
        run.dump.state.nodes.map((n) => [n.metadata?.name ?? '', n.metadata?.labels ?? {}]),
      ),
    },
    compatibilityVersion: doc.compatibilityVersion,
    warnings: describeSkipped(flags.cluster, run.dump.skipped),
  };
}

/**
 * Where the baseline placed its pods: a `schedlab simulate -o json` document as saved, or a dump
 * scheduled now with the same flags (and the check's own configuration, if it names one).
 */
export function baselinePlacements(
  file: string,
  flags: SimulationFlags,
  config: string | undefined,
): Map<string, string | null> {
  let parsed: unknown;
  try {
    parsed = (require('yaml') as typeof Yaml).parse(readInputFile(file));
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    throw new InputFileError(file, `invalid YAML/JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const placements = (parsed as { placements?: unknown } | null)?.placements;
  if (Array.isArray(placements)) {
    return new Map(
      placements.map((p: { pod?: unknown; node?: unknown }, i) => {
        if (typeof p?.pod !== 'string' || (p.node !== null && typeof p.node !== 'string'))
          throw new InputFileError(
            file,
            `placements[${i}]: expected {pod, node} as schedlab simulate -o json prints`,
          );
        return [p.pod, p.node];
      }),
    );
  }
  const run = runSimulation({ ...flags, cluster: file, profile: config ?? flags.profile }, undefined, {
    explain: 'summary',
  });
  return new Map(run.result.results.map((r) => [r.pod, r.node]));
}

function judge(check: Check, facts: RunFacts, flags: SimulationFlags): Verdict {
  switch (check.kind) {
    case 'schedulable':
      return checkSchedulable(facts, check.args.selector);
    case 'unschedulable':
      return checkUnschedulable(facts, check.args.selector, check.args.reason);
    case 'placements':
      return checkPlacements(facts, Array.isArray(check.args) ? check.args : [check.args]);
    case 'maxMovedVsBaseline': {
      const baseline = baselinePlacements(check.args.baseline, flags, check.args.config);
      return checkMoved(facts, baseline, check.args.max, 'the baseline');
    }
    case 'capacity':
      return checkCapacity(
        capacityOf(flags, check.args.podTemplate, check.args.atLeast).document,
        check.args.atLeast,
      );
  }
}

export function checkDump(
  flags: SimulationFlags,
  expectationsFile: string,
): { document: CheckDocument; warnings: string[] } {
  const checks = loadExpectations(expectationsFile); // bad expectations fail before any scheduling
  const { facts, compatibilityVersion, warnings } = runFacts(flags);
  const results = checks.map((check) => ({
    name: check.name,
    kind: check.kind,
    ...judge(check, facts, flags),
  }));
  const passed = results.filter((r) => r.passed).length;
  return {
    document: {
      compatibilityVersion,
      cluster: flags.cluster,
      expectations: expectationsFile,
      passed: passed === results.length,
      summary: { checks: results.length, passed, failed: results.length - passed },
      checks: results,
    },
    warnings,
  };
}

/** A line per check, then each failed check's diff: the pods, what was expected, what happened. */
export function formatCheckReport(doc: CheckDocument): string[] {
  const lines = [`Checking ${doc.cluster} against ${doc.expectations}`, ''];
  const width = Math.max(...doc.checks.map((c) => c.name.length));
  for (const c of doc.checks)
    lines.push(`${c.passed ? 'PASS' : 'FAIL'}  ${c.name.padEnd(width)}  ${c.summary}`);
  for (const c of doc.checks.filter((x) => !x.passed)) {
    lines.push('', `FAIL ${c.name} (${c.kind})`);
    for (const f of c.failures) {
      lines.push(`  - ${f.pod ? `${f.pod}: ` : ''}expected ${f.expected}`, `    + got ${f.actual}`);
      if (f.message) lines.push(`      ${f.message}`);
    }
  }
  const s = doc.summary;
  lines.push(
    '',
    s.failed
      ? `${s.failed} of ${s.checks} checks failed (kube-scheduler ${doc.compatibilityVersion} behaviour)`
      : `all ${s.checks} checks passed (kube-scheduler ${doc.compatibilityVersion} behaviour)`,
  );
  return lines;
}

export function registerCheckCommand(program: Command): void {
  const command = program
    .command('check')
    .description(
      'a policy gate for CI: judge schedulability, placements, moves vs a baseline and capacity against an expectations file; exit 1 with a diff when one fails',
    )
    .requiredOption('--expect <file>', 'the expectations (YAML or JSON; see docs/ci-gates.md)')
    .addOption(outputOption())
    // A missing or bad flag is bad input: exit 2, like a bad file, not 1 (a failed check).
    .exitOverride((error) => process.exit(error.exitCode === 1 ? CheckExit.badInput : error.exitCode));
  addSimulationOptions(command, { exitCodesHelp: CHECK_EXIT_CODES_HELP }).action(
    (options: Record<string, unknown>) => {
      try {
        const out = checkDump(simulationFlags(options), options.expect as string);
        for (const warning of out.warnings) process.stderr.write(`${warning}\n`);
        const format = options.output as OutputFormat;
        process.stdout.write(
          isTableFormat(format)
            ? `${formatCheckReport(out.document).join('\n')}\n`
            : renderDocument(out.document, format),
        );
        process.exitCode = out.document.passed ? CheckExit.passed : CheckExit.failed;
      } catch (error) {
        const code = reportFailure(error, (text) => process.stderr.write(text));
        process.exitCode = code === ExitCode.usage ? CheckExit.badInput : CheckExit.internal;
      }
    },
  );
}
