/**
 * The report's storage section: every claim with its volume's zone (and volumes no claim uses),
 * and, for a scenario run, its data-loss report as one row per volume or claim.
 */
import { namespaceOf, podKeyOf } from '@schedlab/k8s';
import type { KubeObject, Node, PersistentVolume, PersistentVolumeClaim, Pod } from '@schedlab/k8s';
import { volumeBinding } from '@schedlab/scheduler';
import { dataLossRows, zoneOfVolume, type StorageDataLossReport } from '@schedlab/storage';
import type { ReportStorage, ReportVolume } from './report-input';

const h = volumeBinding.pvHelpers;
const phaseOf = (o: { status?: { phase?: string }; metadata?: { deletionTimestamp?: string } }) =>
  o.metadata?.deletionTimestamp ? 'Terminating' : (o.status?.phase ?? 'Pending');

/** Undefined when the objects hold no claim and no volume. */
export function buildStorageReport(
  items: readonly KubeObject[],
  dataLoss?: StorageDataLossReport,
): ReportStorage | undefined {
  const claims = items.filter(
    (o) => o.kind === 'PersistentVolumeClaim',
  ) as unknown as PersistentVolumeClaim[];
  const pvs = items.filter((o) => o.kind === 'PersistentVolume') as unknown as PersistentVolume[];
  if (claims.length === 0 && pvs.length === 0 && !dataLoss) return undefined;
  const nodes = items.filter((o) => o.kind === 'Node') as unknown as Node[];
  const byName = new Map(pvs.map((v) => [v.metadata?.name ?? '', v]));
  const podsOfClaim = new Map<string, string[]>();
  for (const pod of items.filter((o) => o.kind === 'Pod') as unknown as Pod[])
    for (const v of pod.spec?.volumes ?? []) {
      const ref = h.claimNameOfVolume(pod, v);
      if (!ref) continue;
      const key = `${namespaceOf(pod as never)}/${ref.name}`;
      podsOfClaim.set(key, [...(podsOfClaim.get(key) ?? []), podKeyOf(pod)]);
    }
  const used = new Set<string>();
  const volumes: ReportVolume[] = claims.map((c) => {
    const pv = c.spec?.volumeName ? byName.get(c.spec.volumeName) : undefined;
    if (pv) used.add(pv.metadata?.name ?? '');
    return {
      claim: h.claimKey(c),
      volume: pv?.metadata?.name ?? null,
      storageClass: h.claimClass(c),
      capacity: String(pv?.spec?.capacity?.storage ?? c.spec?.resources?.requests?.storage ?? ''),
      zone: pv ? zoneOfVolume(pv, nodes) : '',
      phase: phaseOf(c),
      pods: (podsOfClaim.get(h.claimKey(c)) ?? []).sort(),
    };
  });
  for (const pv of pvs.filter((v) => !used.has(v.metadata?.name ?? '')))
    volumes.push({
      claim: '',
      volume: pv.metadata?.name ?? '',
      storageClass: h.volumeClass(pv),
      capacity: String(pv.spec?.capacity?.storage ?? ''),
      zone: zoneOfVolume(pv, nodes),
      phase: phaseOf(pv),
      pods: [],
    });
  volumes.sort((a, b) => a.zone.localeCompare(b.zone) || a.claim.localeCompare(b.claim));
  return { volumes, ...(dataLoss ? { dataLoss: dataLossRows(dataLoss) } : {}) };
}
