import { KubeApiStatusError, type KubeApi } from './kube-api';

/** One kind the engine reads, and where the API serves it. */
export interface SnapshotKind {
  kind: string;
  /** '' for the core group (/api/v1). */
  group: string;
  /** The versions Schedlab reads, preferred first. */
  versions: readonly string[];
  /** The plural resource name in the URL. */
  resource: string;
  namespaced: boolean;
  /** A field selector the scheduler itself lists with. */
  fieldSelector?: string;
}

const DRA_VERSIONS = ['v1', 'v1beta2', 'v1beta1'] as const;

/**
 * Every kind the engine uses, in the order they are listed and written. Secrets and ConfigMaps
 * are never read: the engine needs neither, and a snapshot must be safe to share.
 */
export const SNAPSHOT_KINDS: readonly SnapshotKind[] = [
  { kind: 'Namespace', group: '', versions: ['v1'], resource: 'namespaces', namespaced: false },
  { kind: 'Node', group: '', versions: ['v1'], resource: 'nodes', namespaced: false },
  {
    kind: 'PriorityClass',
    group: 'scheduling.k8s.io',
    versions: ['v1'],
    resource: 'priorityclasses',
    namespaced: false,
  },
  {
    kind: 'StorageClass',
    group: 'storage.k8s.io',
    versions: ['v1'],
    resource: 'storageclasses',
    namespaced: false,
  },
  { kind: 'CSINode', group: 'storage.k8s.io', versions: ['v1'], resource: 'csinodes', namespaced: false },
  { kind: 'CSIDriver', group: 'storage.k8s.io', versions: ['v1'], resource: 'csidrivers', namespaced: false },
  {
    kind: 'CSIStorageCapacity',
    group: 'storage.k8s.io',
    versions: ['v1'],
    resource: 'csistoragecapacities',
    namespaced: true,
  },
  { kind: 'PersistentVolume', group: '', versions: ['v1'], resource: 'persistentvolumes', namespaced: false },
  {
    kind: 'PersistentVolumeClaim',
    group: '',
    versions: ['v1'],
    resource: 'persistentvolumeclaims',
    namespaced: true,
  },
  { kind: 'LimitRange', group: '', versions: ['v1'], resource: 'limitranges', namespaced: true },
  { kind: 'ResourceQuota', group: '', versions: ['v1'], resource: 'resourcequotas', namespaced: true },
  { kind: 'Service', group: '', versions: ['v1'], resource: 'services', namespaced: true },
  { kind: 'Deployment', group: 'apps', versions: ['v1'], resource: 'deployments', namespaced: true },
  { kind: 'ReplicaSet', group: 'apps', versions: ['v1'], resource: 'replicasets', namespaced: true },
  { kind: 'StatefulSet', group: 'apps', versions: ['v1'], resource: 'statefulsets', namespaced: true },
  { kind: 'DaemonSet', group: 'apps', versions: ['v1'], resource: 'daemonsets', namespaced: true },
  { kind: 'Job', group: 'batch', versions: ['v1'], resource: 'jobs', namespaced: true },
  {
    kind: 'PodDisruptionBudget',
    group: 'policy',
    versions: ['v1'],
    resource: 'poddisruptionbudgets',
    namespaced: true,
  },
  {
    kind: 'DeviceClass',
    group: 'resource.k8s.io',
    versions: DRA_VERSIONS,
    resource: 'deviceclasses',
    namespaced: false,
  },
  {
    kind: 'ResourceSlice',
    group: 'resource.k8s.io',
    versions: DRA_VERSIONS,
    resource: 'resourceslices',
    namespaced: false,
  },
  {
    kind: 'ResourceClaim',
    group: 'resource.k8s.io',
    versions: DRA_VERSIONS,
    resource: 'resourceclaims',
    namespaced: true,
  },
  {
    kind: 'ResourceClaimTemplate',
    group: 'resource.k8s.io',
    versions: DRA_VERSIONS,
    resource: 'resourceclaimtemplates',
    namespaced: true,
  },
  {
    // GA in 1.37 (DRADeviceTaintRules); a server without it at v1 is told apart by a 404.
    kind: 'DeviceTaintRule',
    group: 'resource.k8s.io',
    versions: ['v1', 'v1beta2', 'v1alpha3'],
    resource: 'devicetaintrules',
    namespaced: false,
  },
  {
    kind: 'Pod',
    group: '',
    versions: ['v1'],
    resource: 'pods',
    namespaced: true,
    // Like kube-scheduler's own informer: finished pods hold no resources and are never scheduled.
    fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed',
  },
];

export interface KubeObjectJson {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; managedFields?: unknown; [field: string]: unknown };
  [field: string]: unknown;
}

interface ObjectListJson {
  items?: KubeObjectJson[] | null;
  metadata?: { continue?: string };
}

interface ApiGroupListJson {
  groups?: { name: string; versions?: { version: string }[] }[];
}

export interface ListOptions {
  /** Only this namespace's objects of namespaced kinds; cluster-scoped kinds are listed whole. */
  namespace?: string;
  /** Objects per request (`limit`); the server's `continue` token fetches the next page. */
  pageSize: number;
  /** After each page: the kind being listed and how many of it so far. */
  onPage?: (kind: SnapshotKind, listed: number) => void;
  /** A kind the server does not serve, with why (one line). */
  onSkip?: (kinds: SnapshotKind[], reason: string) => void;
}

export interface ClusterListing {
  objects: KubeObjectJson[];
  /** apiVersion actually read, per kind listed. */
  versions: Record<string, string>;
  /** How many objects of each kind. */
  counts: Record<string, number>;
}

/** The versions of each API group the server serves (from /apis), the core group as ''. */
async function servedVersions(api: KubeApi): Promise<Map<string, Set<string>>> {
  const served = new Map<string, Set<string>>([['', new Set(['v1'])]]);
  const list = await api.getJson<ApiGroupListJson>('/apis', {}, 'discover API groups (/apis)');
  for (const group of list.groups ?? [])
    served.set(group.name, new Set((group.versions ?? []).map((v) => v.version)));
  return served;
}

function listPath(kind: SnapshotKind, version: string, namespace?: string): string {
  const root = kind.group === '' ? `/api/${version}` : `/apis/${kind.group}/${version}`;
  return kind.namespaced && namespace
    ? `${root}/namespaces/${encodeURIComponent(namespace)}/${kind.resource}`
    : `${root}/${kind.resource}`;
}

/** A listed object as a dump holds it: its apiVersion and kind set, its managedFields gone. */
function asDumpObject(item: KubeObjectJson, apiVersion: string, kind: string): KubeObjectJson {
  const { managedFields: _dropped, ...metadata } = item.metadata ?? {};
  return { apiVersion, kind, ...item, metadata };
}

/**
 * Lists every kind of SNAPSHOT_KINDS the server serves, page by page. A group the server does not
 * serve at any version Schedlab reads (e.g. resource.k8s.io before DRA) is skipped and reported
 * through `onSkip`; any other failure (401, 403, connection) is thrown.
 */
export async function listCluster(api: KubeApi, options: ListOptions): Promise<ClusterListing> {
  const served = await servedVersions(api);
  const listing: ClusterListing = { objects: [], versions: {}, counts: {} };
  const skippedGroups = new Map<string, SnapshotKind[]>();
  for (const kind of SNAPSHOT_KINDS) {
    const versions = served.get(kind.group);
    const version = kind.versions.find((v) => versions?.has(v));
    if (version === undefined) {
      skippedGroups.set(kind.group, [...(skippedGroups.get(kind.group) ?? []), kind]);
      continue;
    }
    const apiVersion = kind.group === '' ? version : `${kind.group}/${version}`;
    const path = listPath(kind, version, options.namespace);
    let listed = 0;
    let next: string | undefined;
    do {
      let page: ObjectListJson;
      try {
        page = await api.getJson<ObjectListJson>(
          path,
          { limit: String(options.pageSize), continue: next, fieldSelector: kind.fieldSelector },
          `list ${kind.resource}.${apiVersion} (${path})`,
        );
      } catch (error) {
        // Served by its group yet not found: a server that lacks this one resource.
        if (error instanceof KubeApiStatusError && error.status === 404 && next === undefined) {
          options.onSkip?.([kind], `${apiVersion} serves no ${kind.resource}`);
          break;
        }
        throw error;
      }
      for (const item of page.items ?? []) listing.objects.push(asDumpObject(item, apiVersion, kind.kind));
      listed += page.items?.length ?? 0;
      options.onPage?.(kind, listed);
      next = page.metadata?.continue || undefined;
    } while (next !== undefined);
    listing.versions[kind.kind] = apiVersion;
    listing.counts[kind.kind] = listed;
  }
  for (const [group, kinds] of skippedGroups) {
    const wanted = [...new Set(kinds.flatMap((k) => k.versions))].join(', ');
    options.onSkip?.(kinds, `the server does not serve ${group} (${wanted})`);
  }
  return listing;
}
