import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { stringify } from 'yaml';
import { UsageError } from '../input/errors';
import { KubeApi } from '../snapshot/kube-api';
import { defaultKubeconfigPath, loadKubeconfig } from '../snapshot/kubeconfig';
import { listCluster, type ClusterListing, type SnapshotKind } from '../snapshot/list-cluster';
import { uploadSnapshot } from '../snapshot/upload';
import { withExitCodes } from './simulation-options';

/** kubectl's page size: large enough for few round trips, small enough to keep each answer cheap. */
const DEFAULT_PAGE_SIZE = 500;

export interface SnapshotFlags {
  kubeconfig: string;
  context?: string;
  namespace?: string;
  pageSize: number;
}

function parsePageSize(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1)
    throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

/** The dump a snapshot writes: one `kind: List`, which every `--cluster` loader reads. */
export function dumpOf(listing: ClusterListing): { apiVersion: 'v1'; kind: 'List'; items: unknown[] } {
  return { apiVersion: 'v1', kind: 'List', items: listing.objects };
}

/** A kind's plural as people write it: Nodes, PriorityClasses, CSIStorageCapacities. */
function pluralOf(kind: string): string {
  if (kind.endsWith('s')) return `${kind}es`;
  if (kind.endsWith('y')) return `${kind.slice(0, -1)}ies`;
  return `${kind}s`;
}

/** `3 Nodes, 12 Pods, …`: the kinds found, in listing order, without the empty ones. */
export function describeCounts(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${n === 1 ? kind : pluralOf(kind)}`);
  return parts.length ? parts.join(', ') : 'no objects';
}

/** Lists the cluster a kubeconfig context points at; progress and notices go to `stderr`. */
export async function takeSnapshot(
  flags: SnapshotFlags,
  stderr: { isTTY?: boolean; write(text: string): unknown } = process.stderr,
): Promise<{ context: string; listing: ClusterListing }> {
  const connection = await loadKubeconfig(flags.kubeconfig, flags.context);
  const api = new KubeApi(connection);
  let progressShown = false;
  try {
    const listing = await listCluster(api, {
      namespace: flags.namespace,
      pageSize: flags.pageSize,
      onPage: stderr.isTTY
        ? (kind: SnapshotKind, listed: number) => {
            progressShown = true;
            stderr.write(`\r\x1b[Klisting ${kind.resource}: ${listed}`);
          }
        : undefined,
      onSkip: (kinds, reason) => {
        if (progressShown) stderr.write('\r\x1b[K');
        progressShown = false;
        stderr.write(`schedlab: ${reason}: skipping ${kinds.map((k) => k.kind).join(', ')}\n`);
      },
    });
    return { context: connection.context, listing };
  } finally {
    if (progressShown) stderr.write('\r\x1b[K');
    api.close();
  }
}

/** JSON for a .json file, YAML otherwise (and on stdout). */
function render(dump: object, file: string | undefined): string {
  if (file?.toLowerCase().endsWith('.json')) return `${JSON.stringify(dump, null, 2)}\n`;
  return stringify(dump, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** Writes next to the target, then renames: a failed run never leaves half a dump behind. */
function writeDump(file: string, text: string): void {
  const partial = `${file}.partial`;
  try {
    writeFileSync(partial, text);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new UsageError(
      `-o ${file}: cannot write: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

export function registerSnapshotCommand(program: Command): void {
  program
    .command('snapshot')
    .description(
      'list what the scheduler reads from a live cluster (through a kubeconfig) into a dump for --cluster, or upload it to a Schedlab service',
    )
    .option(
      '--kubeconfig <file>',
      'kubeconfig to use (default: the first file of $KUBECONFIG, else ~/.kube/config)',
    )
    .option('--context <name>', 'kubeconfig context (default: its current-context)')
    .option(
      '-n, --namespace <namespace>',
      'only this namespace for namespaced kinds (pods, claims, workloads…); nodes, volumes and classes are listed whole',
    )
    .option(
      '-o, --output <file>',
      'write the dump here: JSON for *.json, YAML otherwise (default: YAML on stdout)',
    )
    .option(
      '--upload <url>',
      'post the dump as a snapshot to this Schedlab service (e.g. http://localhost:3000)',
    )
    .option('--token <api-key>', 'API key for --upload (default: $SCHEDLAB_API_KEY)')
    .option('--name <name>', 'snapshot name for --upload (default: the context name)')
    .option('--labels <k=v,...>', 'snapshot labels for --upload, e.g. env=prod,team=payments')
    .addOption(
      new Option('--page-size <n>', 'objects per list request')
        .argParser(parsePageSize)
        .default(DEFAULT_PAGE_SIZE)
        .hideHelp(),
    )
    .addHelpText(
      'after',
      `
Lists Namespaces, Nodes, PriorityClasses, StorageClasses, CSINodes, CSIDrivers, CSIStorageCapacities,
PersistentVolumes and Claims, LimitRanges, ResourceQuotas, Services, Deployments, ReplicaSets,
StatefulSets, DaemonSets, Jobs, PodDisruptionBudgets, the DRA kinds (resource.k8s.io v1, else
v1beta2/v1beta1) and Pods that have not finished. Never Secrets or ConfigMaps; managedFields dropped.

Exit codes:
  0  success
  1  the kubeconfig, the cluster or the service refused or failed; the message names which
  2  internal error in Schedlab`,
    )
    .action((options: Record<string, unknown>) =>
      withExitCodes(program, async () => {
        const upload = options.upload as string | undefined;
        const token = (options.token as string | undefined) ?? process.env.SCHEDLAB_API_KEY;
        if (upload !== undefined && !token)
          throw new UsageError('--upload needs an API key: --token, or $SCHEDLAB_API_KEY');
        const flags: SnapshotFlags = {
          kubeconfig: (options.kubeconfig as string | undefined) ?? defaultKubeconfigPath(),
          context: options.context as string | undefined,
          namespace: options.namespace as string | undefined,
          pageSize: options.pageSize as number,
        };
        const { context, listing } = await takeSnapshot(flags);
        const dump = dumpOf(listing);
        const output = options.output as string | undefined;
        if (output !== undefined) writeDump(output, render(dump, output));
        else if (upload === undefined) process.stdout.write(render(dump, undefined));
        if (process.stderr.isTTY)
          process.stderr.write(`schedlab: snapshot: ${describeCounts(listing.counts)}\n`);
        if (upload !== undefined && token) {
          const stored = await uploadSnapshot(
            upload,
            token,
            JSON.stringify(dump),
            (options.name as string | undefined) ?? context,
            options.labels as string | undefined,
          );
          process.stdout.write(
            `snapshot ${stored.id} (${stored.name})${stored.duplicate ? ': identical content was already stored' : ''}\n`,
          );
        }
      }),
    );
}
