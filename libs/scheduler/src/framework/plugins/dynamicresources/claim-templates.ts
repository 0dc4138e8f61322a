/**
 * What kube-controller-manager's resourceclaim controller does before the scheduler sees a pod
 * whose spec.resourceClaims name a ResourceClaimTemplate: it creates the claim from the template,
 * owned by the pod, and records its name in pod.status.resourceClaimStatuses. Until then (the
 * template is missing, say) DynamicResources holds the pod at PreEnqueue with
 * `pod "ns/name": ResourceClaim not created yet`.
 *
 * The API server names a generated claim with 5 random characters after generateName; Schedlab
 * draws them from a hash of the pod and its claim entry, so a pod keeps its claim's name from run to
 * run (the oracle names them the same way).
 */
import { SAFE_ALPHABET, fnv32a, type Pod } from '@schedlab/k8s';
import type {
  ClusterObjects,
  ResourceClaim,
  ResourceClaimTemplate,
} from '../../../backend/cache/cluster-objects';

/** The annotation that ties a generated claim to its entry in the pod's spec.resourceClaims. */
export const POD_CLAIM_NAME_ANNOTATION = 'resource.kubernetes.io/pod-claim-name';

/** An entry of pod.spec.resourceClaims. */
export interface PodClaimEntry {
  name: string;
  resourceClaimName?: string;
  resourceClaimTemplateName?: string;
}

/** An entry of pod.status.resourceClaimStatuses. */
export interface PodClaimStatus {
  name: string;
  resourceClaimName?: string;
}

interface OwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** Longest generateName base the controller keeps: 63 minus a hyphen and 5 random characters. */
const MAX_BASE_LENGTH = 57;
/** names.SimpleNameGenerator keeps at most 58 characters of generateName. */
const MAX_GENERATE_NAME = 58;
const SUFFIX_LENGTH = 5;

/**
 * The controller's generateName: `<pod>-<claim>-`, or both parts cut in proportion to their
 * lengths (joined by one hyphen, none at the end) when that is longer than 57 characters.
 */
export function claimGenerateName(podName: string, podClaimName: string): string {
  const base = `${podName}-${podClaimName}-`;
  if (base.length <= MAX_BASE_LENGTH) return base;
  const cut = (s: string) => s.slice(0, Math.floor((s.length * MAX_BASE_LENGTH) / base.length));
  return `${cut(podName)}-${cut(podClaimName)}`;
}

/** The 5 characters standing for the API server's random ones: base-27 digits of a hash. */
export function generatedClaimSuffix(namespace: string, podName: string, podClaimName: string): string {
  let h = fnv32a(`${namespace}/${podName}/${podClaimName}`);
  let out = '';
  for (let i = 0; i < SUFFIX_LENGTH; i++) {
    out += SAFE_ALPHABET[h % SAFE_ALPHABET.length];
    h = Math.floor(h / SAFE_ALPHABET.length);
  }
  return out;
}

export function generatedClaimName(namespace: string, podName: string, podClaimName: string): string {
  return (
    claimGenerateName(podName, podClaimName).slice(0, MAX_GENERATE_NAME) +
    generatedClaimSuffix(namespace, podName, podClaimName)
  );
}

/** The pod's uid; a dump without one gets the uid the oracle assigns. */
export function podUid(pod: Pod): string {
  return pod.metadata?.uid ?? `uid-pod-${pod.metadata?.namespace ?? 'default'}-${pod.metadata?.name ?? ''}`;
}

/** resourceclaim.IsForPod: the claim is in the pod's namespace and the pod is its controller. */
export function isClaimForPod(pod: Pod, claim: ResourceClaim): boolean {
  if ((claim.metadata?.namespace ?? 'default') !== (pod.metadata?.namespace ?? 'default')) return false;
  const uid = podUid(pod);
  return ((claim.metadata?.ownerReferences ?? []) as OwnerReference[]).some(
    (o) => o.controller === true && o.uid === uid,
  );
}

/** A claim the controller created for this entry earlier but never recorded in the pod's status. */
function orphanedClaim(pod: Pod, entry: PodClaimEntry, objects: ClusterObjects): ResourceClaim | undefined {
  const namespace = pod.metadata?.namespace ?? 'default';
  return objects.resourceClaims
    .list(namespace)
    .find(
      (c) => isClaimForPod(pod, c) && c.metadata?.annotations?.[POD_CLAIM_NAME_ANNOTATION] === entry.name,
    );
}

function claimFromTemplate(pod: Pod, entry: PodClaimEntry, template: ResourceClaimTemplate): ResourceClaim {
  const namespace = pod.metadata?.namespace ?? 'default';
  const podName = pod.metadata?.name ?? '';
  const name = generatedClaimName(namespace, podName, entry.name);
  const owner: OwnerReference = {
    apiVersion: 'v1',
    kind: 'Pod',
    name: podName,
    uid: podUid(pod),
    controller: true,
    blockOwnerDeletion: true,
  };
  const labels = template.spec?.metadata?.labels;
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: {
      name,
      generateName: claimGenerateName(podName, entry.name),
      namespace,
      uid: `uid-resourceclaim-${namespace}-${name}`,
      ...(labels ? { labels: { ...labels } } : {}),
      annotations: {
        ...(template.spec?.metadata?.annotations ?? {}),
        [POD_CLAIM_NAME_ANNOTATION]: entry.name,
      },
      ownerReferences: [owner],
    },
    spec: structuredClone(template.spec?.spec ?? {}),
  } as ResourceClaim;
}

/** Release differences of the controller (the behaviour switches that concern it). */
export interface ClaimControllerBehaviour {
  /**
   * podNeedsWork looks past entries it cannot act on (a claim recorded as not needed, a missing
   * claim the user must create, a claim the pod does not own) for one it can; before, the first
   * such entry left the whole pod alone.
   */
  checksEveryEntry: boolean;
}

/**
 * podNeedsWork: whether the controller takes the pod up at all. A
 * template entry without a recorded claim, or whose recorded claim is gone, needs work.
 */
function podNeedsWork(pod: Pod, objects: ClusterObjects, behaviour: ClaimControllerBehaviour): boolean {
  const namespace = pod.metadata?.namespace ?? 'default';
  const entries = (pod.spec as { resourceClaims?: PodClaimEntry[] } | undefined)?.resourceClaims ?? [];
  const statuses =
    (pod.status as { resourceClaimStatuses?: PodClaimStatus[] } | undefined)?.resourceClaimStatuses ?? [];
  for (const entry of entries) {
    let name: string | undefined;
    if (entry.resourceClaimName) name = entry.resourceClaimName;
    else if (entry.resourceClaimTemplateName) {
      const status = statuses.find((s) => s.name === entry.name);
      if (!status) return true;
      if (!status.resourceClaimName) {
        if (behaviour.checksEveryEntry) continue;
        return false;
      }
      name = status.resourceClaimName;
    } else return true;
    const claim = objects.resourceClaims.get(namespace, name);
    if (!claim) {
      if (entry.resourceClaimTemplateName) return true;
      if (behaviour.checksEveryEntry) continue;
      return false;
    }
    if (entry.resourceClaimTemplateName && !isClaimForPod(pod, claim)) {
      if (behaviour.checksEveryEntry) continue;
      return false;
    }
  }
  return false;
}

/**
 * The controller's pass over one pod (syncPod), when podNeedsWork takes it up: for each template
 * entry without a usable claim it adopts an orphaned claim or creates one, and records every new
 * name in the pod's status. A missing template ends the pass without touching the status, as the
 * controller's error does (claims created for earlier entries stay, to be adopted on the next
 * pass). Returns the pod as the scheduler then sees it (the same object when nothing changed).
 * (For a scheduled pod the controller also reserves allocated claims for it; not modelled.)
 */
export function syncPodClaims(
  pod: Pod,
  objects: ClusterObjects,
  behaviour: ClaimControllerBehaviour = { checksEveryEntry: true },
): Pod {
  if (pod.metadata?.deletionTimestamp) return pod;
  const entries = (pod.spec as { resourceClaims?: PodClaimEntry[] } | undefined)?.resourceClaims ?? [];
  if (!entries.some((e) => e.resourceClaimTemplateName)) return pod;
  if (!podNeedsWork(pod, objects, behaviour)) return pod;
  const namespace = pod.metadata?.namespace ?? 'default';
  const statuses =
    (pod.status as { resourceClaimStatuses?: PodClaimStatus[] } | undefined)?.resourceClaimStatuses ?? [];
  const recorded = new Map<string, string>();
  for (const entry of entries) {
    if (entry.resourceClaimName || !entry.resourceClaimTemplateName) continue;
    const status = statuses.find((s) => s.name === entry.name);
    if (status) {
      // Recorded without a name: the claim is deliberately not needed.
      if (!status.resourceClaimName) continue;
      const existing = objects.resourceClaims.get(namespace, status.resourceClaimName);
      if (existing && isClaimForPod(pod, existing)) continue;
    }
    let claim = orphanedClaim(pod, entry, objects);
    if (!claim) {
      const template = objects.resourceClaimTemplates.get(namespace, entry.resourceClaimTemplateName);
      if (!template) return pod;
      claim = claimFromTemplate(pod, entry, template);
      objects.resourceClaims.set(claim);
    }
    recorded.set(entry.name, claim.metadata?.name ?? '');
  }
  if (recorded.size === 0) return pod;
  const merged = statuses.filter((s) => !recorded.has(s.name));
  for (const [name, resourceClaimName] of recorded) merged.push({ name, resourceClaimName });
  return { ...pod, status: { ...(pod.status ?? {}), resourceClaimStatuses: merged } } as Pod;
}
