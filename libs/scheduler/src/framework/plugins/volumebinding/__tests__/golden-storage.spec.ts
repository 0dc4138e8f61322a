/**
 * Replays the storage conformance family (recorded from upstream v1.26.7) for the volume plugins
 * alone: PreFilter messages, the first failing volume Filter plugin and its reasons per node,
 * that volume filters pass where upstream got past them, and the `volumes` binding result.
 * Pods are placed at their recorded nodes (victims removed) before the next one is checked.
 */
import * as fs from 'fs';
import * as path from 'path';
import {
  defaultNode,
  defaultPersistentVolume,
  defaultPersistentVolumeClaim,
  defaultPod,
  defaultStorageClass,
  type Node,
  type PersistentVolumeClaim,
  type Pod,
} from '@schedlab/k8s';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { CycleState } from '../../../cycle-state';
import type { FilterPlugin, PreFilterPlugin } from '../../../interface';
import { FeatureSet } from '../../../../features';
import { FakeHandle } from '../../../../testing/fake-handle';
import { isSuccess } from '../../../status';
import { PluginNames } from '../../names';
import { VolumeRestrictions } from '../../volumerestrictions';
import { VolumeZone } from '../../volumezone';
import { CSILimits, newAzureDiskLimits, newEBSLimits, newGCEPDLimits } from '../../nodevolumelimits';
import { VolumeBinding, applyVolumeBindings, reservedVolumeBindings } from '..';

const STORAGE_DIR = '/work/shared/conformance/storage';
const FILTER_ORDER = [
  'NodeUnschedulable',
  'NodeName',
  'TaintToleration',
  'NodeAffinity',
  'NodePorts',
  'NodeResourcesFit',
  'VolumeRestrictions',
  'EBSLimits',
  'GCEPDLimits',
  'NodeVolumeLimits',
  'AzureDiskLimits',
  'VolumeBinding',
  'VolumeZone',
  'PodTopologySpread',
  'InterPodAffinity',
];
const MINE = new Set([
  'VolumeRestrictions',
  'EBSLimits',
  'GCEPDLimits',
  'NodeVolumeLimits',
  'AzureDiskLimits',
  'VolumeBinding',
  'VolumeZone',
]);
const VOLUME_PREFILTER_MESSAGES = [
  'pod has unbound immediate PersistentVolumeClaims',
  'persistentvolumeclaim "',
  'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode',
];

interface Attempt {
  filterReasons?: Record<string, string[]>;
  filterPlugin?: Record<string, string>;
  message?: string;
  feasible?: string[];
}
interface Result extends Attempt {
  pod: string;
  node: string | null;
  victims?: string[];
  nominatedNode?: string;
  firstAttempt?: Attempt;
  volumes?: unknown;
}

const files = fs.existsSync(STORAGE_DIR)
  ? fs
      .readdirSync(STORAGE_DIR)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];

function keyOf(p: { metadata?: { namespace?: string; name?: string } }): string {
  return `${p.metadata?.namespace ?? 'default'}/${p.metadata?.name}`;
}

function loadCase(file: string) {
  const data = JSON.parse(fs.readFileSync(path.join(STORAGE_DIR, file), 'utf8'));
  const objects = new ClusterObjects();
  const nodes: Node[] = [];
  const pods = new Map<string, Pod>();
  const items = data.input.items as { kind: string }[];
  const classes = items.filter((i) => i.kind === 'StorageClass').map((i) => defaultStorageClass(i as never));
  const defaultClass = classes.find(
    (c) => c.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true',
  );
  for (const c of classes) objects.storageClasses.set(c);
  for (const it of items) {
    switch (it.kind) {
      case 'Node':
        nodes.push(defaultNode(it as Node));
        break;
      case 'CSINode':
        objects.csiNodes.set(it as never);
        break;
      case 'PersistentVolume':
        objects.persistentVolumes.set(defaultPersistentVolume(it as never));
        break;
      case 'PersistentVolumeClaim': {
        const pvc = defaultPersistentVolumeClaim(it as PersistentVolumeClaim);
        if (pvc.spec && !('storageClassName' in pvc.spec) && defaultClass)
          pvc.spec.storageClassName = defaultClass.metadata?.name;
        objects.persistentVolumeClaims.set(pvc);
        break;
      }
      case 'Pod': {
        const p = defaultPod(it as Pod);
        pods.set(keyOf(p), p);
        break;
      }
    }
  }
  return { data, objects, nodes, pods };
}

describe('storage golden cases: volume plugins', () => {
  if (files.length === 0) {
    it.skip('no storage cases present', () => undefined);
    return;
  }
  const totals = { prefilter: 0, nodeChecks: 0, volumes: 0 };
  afterAll(() => {
    // eslint-disable-next-line no-console
    console.log(`storage golden checks: ${JSON.stringify(totals)}`);
  });

  it.each(files)('%s', (file) => {
    const { data, objects, nodes, pods } = loadCase(file);
    const features = new FeatureSet('1.26', data.config.featureGates ?? {});
    const running = new Map<string, Pod>([...pods].filter(([, p]) => p.spec?.nodeName));
    const failures: string[] = [];

    const check = (podKey: string, attempt: Attempt, bindTo?: string, onlyNode?: string) => {
      const pod = pods.get(podKey)!;
      const handle = new FakeHandle({ nodes, pods: [...running.values()], objects, features });
      const vr = new VolumeRestrictions(handle);
      const vb = new VolumeBinding({ bindTimeoutSeconds: 600 }, handle);
      const filters: FilterPlugin[] = [
        vr,
        newEBSLimits(handle),
        newGCEPDLimits(handle),
        new CSILimits(handle),
        newAzureDiskLimits(handle),
        vb,
        new VolumeZone(handle),
      ];
      const state = new CycleState();
      const preFilterMsg = VOLUME_PREFILTER_MESSAGES.find((m) =>
        attempt.message?.includes(`available: ${m}`),
      );
      let preStatus = null;
      for (const p of [vr, vb] as PreFilterPlugin[]) {
        preStatus = p.preFilter(state, pod).status;
        if (!isSuccess(preStatus)) break;
      }
      if (preFilterMsg) {
        totals.prefilter++;
        const expected = attempt
          .message!.split(' nodes are available: ')[1]
          .split('. preemption:')[0]
          .replace(/\.$/, '');
        if (preStatus?.message() !== expected)
          failures.push(`${podKey}: PreFilter ${preStatus?.message()} != ${expected}`);
        return;
      }
      if (!isSuccess(preStatus)) {
        failures.push(`${podKey}: unexpected PreFilter rejection ${preStatus?.message()}`);
        return;
      }
      for (const ni of handle.snapshot().list()) {
        // The retry after preemption evaluates only the nominated node when it fits.
        if (onlyNode && ni.name !== onlyNode) continue;
        const expPlugin = attempt.filterPlugin?.[ni.name];
        let got: { plugin: string; reasons: readonly string[] } | undefined;
        for (const f of filters) {
          const s = f.filter(state, pod, ni);
          if (!isSuccess(s)) {
            got = { plugin: f.name, reasons: s!.reasons };
            break;
          }
        }
        const expIdx = expPlugin ? FILTER_ORDER.indexOf(expPlugin) : FILTER_ORDER.length;
        if (expPlugin && expIdx < FILTER_ORDER.indexOf('VolumeRestrictions')) continue; // an earlier plugin decided
        totals.nodeChecks++;
        if (expPlugin && MINE.has(expPlugin)) {
          const exp = attempt.filterReasons![ni.name];
          if (!got || got.plugin !== expPlugin || JSON.stringify(got.reasons) !== JSON.stringify(exp)) {
            failures.push(
              `${podKey}@${ni.name}: expected ${expPlugin} ${JSON.stringify(exp)}, got ${JSON.stringify(got)}`,
            );
          }
        } else if (got) {
          failures.push(
            `${podKey}@${ni.name}: expected volume filters to pass (then ${expPlugin ?? 'feasible'}), got ${JSON.stringify(got)}`,
          );
        }
      }
      if (bindTo) {
        const rs = vb.reserve(state, pod, bindTo);
        if (!isSuccess(rs)) failures.push(`${podKey}: reserve failed ${rs?.message()}`);
        const pb = vb.preBind(state, pod, bindTo);
        if (!isSuccess(pb)) failures.push(`${podKey}: preBind failed ${pb?.message()}`);
        const got = applyVolumeBindings(objects, reservedVolumeBindings(state));
        totals.volumes++;
        const exp = (data.expected as Result[]).find((r) => r.pod === podKey)?.volumes;
        if (JSON.stringify(got) !== JSON.stringify(exp))
          failures.push(`${podKey}: volumes ${JSON.stringify(got)} != ${JSON.stringify(exp)}`);
      }
    };

    for (const r of data.expected as Result[]) {
      if (r.firstAttempt) {
        check(r.pod, r.firstAttempt);
        for (const v of r.victims ?? []) running.delete(v);
      }
      const onlyNominated =
        r.nominatedNode && !r.filterReasons && r.node === r.nominatedNode ? r.nominatedNode : undefined;
      check(r.pod, r, r.node ?? undefined, onlyNominated);
      if (r.node) {
        const p = pods.get(r.pod)!;
        running.set(r.pod, { ...p, spec: { ...p.spec!, nodeName: r.node } });
      }
    }
    expect(failures).toEqual([]);
  });

  it('uses the plugin names the profile lists', () => {
    expect(MINE.has(PluginNames.VolumeBinding)).toBe(true);
  });
});
