/**
 * Storage steps of a scenario through the pipeline, on examples/storage-lifecycle.yaml (two
 * three-replica StatefulSets on zonal WaitForFirstConsumer volumes, one per zone): what each step
 * does to claims and volumes, the events it leaves and the data-loss report.
 */
import { ScenarioError, storageReport } from '@schedlab/scenarios';
import { runAnalysis } from './index';
import { applyScratchClaim, storageLifecycleCluster } from './testing/storage-lifecycle';

const cluster = storageLifecycleCluster;

function run(steps: unknown[]) {
  const outcome = runAnalysis('scenario', cluster, { seed: 0 }, { scenario: { steps } });
  return { outcome, report: storageReport(outcome.result.run)! };
}

/** The PV bound to a claim once the cluster started. */
function volumeOf(claim: string): string {
  const { outcome } = run([]);
  const pvc = outcome.result.run.world.items.find(
    (o) => o.kind === 'PersistentVolumeClaim' && `${o.metadata?.namespace}/${o.metadata?.name}` === claim,
  ) as { spec?: { volumeName?: string } } | undefined;
  return pvc!.spec!.volumeName!;
}

describe('storage what-ifs', () => {
  it('starts with every replica bound to a volume provisioned in its zone, with the provisioner’s events', () => {
    const { report } = run([]);
    const initial = report.timeline[0];
    expect(initial.index).toBeNull();
    expect(initial.events.filter((e) => e.reason === 'ProvisioningSucceeded')).toHaveLength(6);
    expect(initial.events.find((e) => e.object === 'PersistentVolumeClaim/shop/data-orders-0')).toEqual({
      object: 'PersistentVolumeClaim/shop/data-orders-0',
      type: 'Normal',
      reason: 'ExternalProvisioning',
      from: 'persistentvolume-controller',
      message:
        "Waiting for a volume to be created either by the external provisioner 'ebs.csi.aws.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
    });
    expect(report.dataLoss).toEqual({ destroyed: [], retained: [], stranded: [], waiting: [] });
  });

  it('names the phases of a volume named as a member of Object.prototype ("constructor")', () => {
    const volume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'constructor' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'local-storage',
        local: { path: '/mnt/disks/extra' },
      },
    };
    const { report } = run([{ apply: { objects: [volume] } }]);
    const step = report.timeline.find((s) => s.index === 0)!;
    expect(step.transitions.filter((t) => t.object === 'PersistentVolume/constructor')).toEqual([
      expect.objectContaining({ from: 'none', to: 'Available' }),
    ]);
  });

  it('deleting a namespace destroys Delete volumes and leaves Retain volumes Released', () => {
    const { report } = run([{ deleteNamespace: { name: 'shop' } }, { deleteNamespace: { name: 'ledger' } }]);
    expect(report.dataLoss.destroyed.map((f) => [f.claim, f.reclaimPolicy, f.outcome])).toEqual([
      ['shop/data-orders-0', 'Delete', 'deleted'],
      ['shop/data-orders-1', 'Delete', 'deleted'],
      ['shop/data-orders-2', 'Delete', 'deleted'],
    ]);
    expect(report.dataLoss.retained.map((f) => [f.claim, f.reclaimPolicy, f.outcome]).sort()).toEqual([
      ['ledger/data-ledger-0', 'Retain', 'retained'],
      ['ledger/data-ledger-1', 'Retain', 'retained'],
      ['ledger/data-ledger-2', 'Retain', 'retained'],
    ]);
    expect(new Set(report.dataLoss.destroyed.map((f) => f.zone))).toEqual(
      new Set(['eu-west-1a', 'eu-west-1b', 'eu-west-1c']),
    );
    const ledgerStep = report.timeline.find((s) => s.index === 1)!;
    expect(ledgerStep.transitions.filter((t) => t.object.startsWith('PersistentVolume/'))).toHaveLength(3);
    expect(ledgerStep.transitions.filter((t) => t.to === 'Released')).toHaveLength(3);
  });

  it('a StatefulSet scale-down deletes claims under whenScaled: Delete and keeps them under Retain', () => {
    const { report, outcome } = run([
      { scale: { kind: 'StatefulSet', namespace: 'shop', name: 'orders', replicas: 1 } },
      { scale: { kind: 'StatefulSet', namespace: 'ledger', name: 'ledger', replicas: 1 } },
    ]);
    expect(report.dataLoss.destroyed.map((f) => f.claim)).toEqual([
      'shop/data-orders-1',
      'shop/data-orders-2',
    ]);
    expect(report.dataLoss.retained).toEqual([]);
    const last = outcome.result.run.storage!.steps.at(-1)!;
    expect(last.phases.claims['ledger/data-ledger-2']).toBe('Bound');
    expect(report.timeline.find((s) => s.index === 0)!.events.map((e) => e.message)).toEqual([
      'delete Pod orders-2 in StatefulSet orders successful',
      'delete Pod orders-1 in StatefulSet orders successful',
    ]);
  });

  it('scaling a Retain StatefulSet back up reuses each replica’s claim, in its volume’s zone', () => {
    const { outcome, report } = run([
      { scale: { kind: 'StatefulSet', namespace: 'ledger', name: 'ledger', replicas: 1 } },
      { scale: { kind: 'StatefulSet', namespace: 'ledger', name: 'ledger', replicas: 3 } },
    ]);
    const up = report.timeline.find((s) => s.index === 1)!;
    // Claims exist: no claim is created, only the pods.
    expect(up.events.filter((e) => e.reason === 'SuccessfulCreate').map((e) => e.message)).toEqual([
      'create Pod ledger-1 in StatefulSet ledger successful',
      'create Pod ledger-2 in StatefulSet ledger successful',
    ]);
    expect(up.events.filter((e) => e.reason === 'ProvisioningSucceeded')).toEqual([]);
    const before = run([]).outcome.result.placements;
    const zoneOf = (node: string) => node.split('-')[1][0];
    for (const pod of ['ledger/ledger-1', 'ledger/ledger-2'])
      expect(zoneOf(outcome.result.placements[pod])).toBe(zoneOf(before[pod]));
  });

  it('a StorageClass reclaimPolicy update is refused; replacing the class leaves existing volumes on Delete', () => {
    const { outcome, report } = run([
      { setReclaimPolicy: { storageClass: 'ssd-delete', reclaimPolicy: 'Retain' } },
      { setReclaimPolicy: { storageClass: 'ssd-delete', reclaimPolicy: 'Retain', replace: true } },
      { deletePVC: { namespace: 'shop', name: 'data-orders-2' } },
    ]);
    const [refused, replaced] = outcome.result.run.steps;
    expect(refused.changes).toEqual([
      {
        type: 'objectRejected',
        object: 'StorageClass/ssd-delete',
        detail:
          'The StorageClass "ssd-delete" is invalid: reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      },
    ]);
    expect(replaced.changes[0].detail).toContain('3 existing volume(s) keep Delete');
    // The claim is in use by a scheduled pod: Terminating, its volume still Bound.
    expect(report.timeline.find((s) => s.index === 2)!.deferred).toEqual(['shop/data-orders-2']);
    expect(report.dataLoss.destroyed).toEqual([]);
  });

  it('patching a volume to Retain saves its data when its claim goes', () => {
    const volume = volumeOf('shop/data-orders-0');
    const { report } = run([
      { setReclaimPolicy: { volume, reclaimPolicy: 'Retain' } },
      { deleteNamespace: { name: 'shop' } },
    ]);
    expect(report.dataLoss.retained.map((f) => f.volume)).toEqual([volume]);
    expect(report.dataLoss.destroyed.map((f) => f.claim)).toEqual([
      'shop/data-orders-1',
      'shop/data-orders-2',
    ]);
  });

  it('a claim deleted under a running pod goes once the pod is deleted (pvc-protection), then its volume', () => {
    const { report } = run([
      { deletePVC: { namespace: 'shop', name: 'data-orders-2' } },
      { scale: { kind: 'StatefulSet', namespace: 'shop', name: 'orders', replicas: 2 } },
    ]);
    expect(report.timeline.find((s) => s.index === 0)!.deferred).toEqual(['shop/data-orders-2']);
    expect(report.dataLoss.destroyed.map((f) => f.claim)).toEqual(['shop/data-orders-2']);
  });

  it('a zone outage strands the replicas whose volumes are pinned to the zone', () => {
    const { report } = run([{ zoneOutage: { zone: 'eu-west-1b' } }, { advanceTime: { seconds: 301 } }]);
    expect(report.dataLoss.stranded.map((s) => [s.claim, s.zone, s.pods])).toEqual([
      ['ledger/data-ledger-1', 'eu-west-1b', ['ledger/ledger-1']],
      ['shop/data-orders-1', 'eu-west-1b', ['shop/orders-1']],
    ]);
    expect(report.dataLoss.stranded[0].reason).toBe(
      'the volume node affinity matches only nodes that are unreachable or not ready: node-b1, node-b2',
    );
    const failed = report.timeline
      .find((s) => s.index === 1)!
      .events.filter((e) => e.reason === 'FailedScheduling');
    expect(failed.map((e) => [e.object, e.type, e.from])).toEqual([
      ['Pod/shop/orders-1', 'Warning', 'default-scheduler'],
      ['Pod/ledger/ledger-1', 'Warning', 'default-scheduler'],
    ]);
    expect(failed[0].message).toContain("didn't match PersistentVolume's node affinity");
    expect(report.dataLoss.destroyed).toEqual([]);
  });

  it('lists every volume and claim the cluster is left with, with reclaim policy, zone and node affinity', () => {
    const { report } = run([{ deleteNamespace: { name: 'shop' } }, applyScratchClaim]);
    // The shop's Delete volumes are gone; the ledger's three stay Bound in their zones.
    expect(report.volumes.map((v) => [v.claim, v.phase, v.reclaimPolicy, v.storageClass, v.zone])).toEqual(
      expect.arrayContaining([
        ['ledger/data-ledger-0', 'Bound', 'Retain', 'ssd-retain', expect.stringMatching(/^eu-west-1[abc]$/)],
      ]),
    );
    expect(report.volumes).toHaveLength(3);
    expect(report.volumes.map((v) => v.name)).toEqual([...report.volumes.map((v) => v.name)].sort());
    for (const v of report.volumes) {
      expect(v.nodeAffinity).toEqual([`topology.ebs.csi.aws.com/zone in [${v.zone}]`]);
      expect(v.localTo).toBeNull();
      expect(v.capacity).toBe('50Gi');
    }
    // The shop's claims went with the namespace; its scratch claim, applied after, waits for a pod.
    expect(report.claims.map((c) => [`${c.namespace}/${c.name}`, c.phase, c.waitingReason])).toEqual([
      ['ledger/data-ledger-0', 'Bound', null],
      ['ledger/data-ledger-1', 'Bound', null],
      ['ledger/data-ledger-2', 'Bound', null],
      [
        'shop/scratch',
        'Pending',
        'waiting for first consumer to be created before binding: no pod uses the claim',
      ],
    ]);
    const ledger0 = report.claims[0];
    expect(report.volumes.find((v) => v.name === ledger0.volume)?.claim).toBe('ledger/data-ledger-0');
  });

  it('a removed zone strands its volumes with nodes gone', () => {
    const { report } = run([
      { removeNodes: { nodes: { selector: 'topology.kubernetes.io/zone=eu-west-1c' } } },
    ]);
    expect(report.dataLoss.stranded.map((s) => s.claim)).toEqual([
      'ledger/data-ledger-0',
      'shop/data-orders-2',
    ]);
    expect(report.dataLoss.stranded[0].reason).toMatch(/nodes it was pinned to are gone/);
  });

  it('a WaitForFirstConsumer claim without a pod is reported waiting', () => {
    const { report } = run([applyScratchClaim]);
    expect(report.dataLoss.waiting).toEqual([
      {
        claim: 'shop/scratch',
        storageClass: 'ssd-delete',
        pods: [],
        reason: 'waiting for first consumer to be created before binding: no pod uses the claim',
      },
    ]);
    expect(report.timeline.find((s) => s.index === 0)!.events).toEqual([
      {
        object: 'PersistentVolumeClaim/shop/scratch',
        type: 'Normal',
        reason: 'WaitForFirstConsumer',
        from: 'persistentvolume-controller',
        message: 'waiting for first consumer to be created before binding',
      },
    ]);
  });

  it('with the PV controller off (--no-pv-controller) claims go but their volumes are not reclaimed', () => {
    const outcome = runAnalysis(
      'scenario',
      cluster,
      { seed: 0, pvController: false },
      { scenario: { steps: [{ deleteNamespace: { name: 'shop' } }] } },
    );
    const report = storageReport(outcome.result.run)!;
    const step = report.timeline.find((s) => s.index === 0)!;
    expect(step.transitions.filter((t) => t.to === 'deleted').map((t) => t.object)).toEqual([
      'PersistentVolumeClaim/shop/data-orders-0',
      'PersistentVolumeClaim/shop/data-orders-1',
      'PersistentVolumeClaim/shop/data-orders-2',
    ]);
    expect(report.dataLoss.destroyed).toEqual([]);
    expect(report.dataLoss.retained).toEqual([]);
  });

  it('reports as stranded only volumes whose claim still exists', () => {
    const outcome = runAnalysis(
      'scenario',
      cluster,
      { seed: 0, pvController: false },
      {
        scenario: {
          steps: [
            { zoneOutage: { zone: 'eu-west-1b' } },
            { advanceTime: { seconds: 301 } },
            { deleteNamespace: { name: 'shop' } },
          ],
        },
      },
    );
    // shop's volume in eu-west-1b stays Bound to its deleted claim (no PV controller): not stranded.
    expect(storageReport(outcome.result.run)!.dataLoss.stranded.map((s) => s.claim)).toEqual([
      'ledger/data-ledger-1',
    ]);
  });

  it('resilience by zone: a replica cannot come back elsewhere, its volume is bound in the lost zone', () => {
    const { result } = runAnalysis('resilience', cluster, { seed: 0 }, { by: 'zone' }).result;
    expect(result.critical).toEqual(['eu-west-1a', 'eu-west-1b', 'eu-west-1c']);
    expect(JSON.stringify(result.domains.find((d) => d.domain === 'eu-west-1b'))).toContain(
      "didn't match PersistentVolume's node affinity",
    );
  });

  it('names the step and field of a claim, pod or namespace that does not exist', () => {
    const error = (steps: unknown[]) => {
      try {
        run(steps);
      } catch (e) {
        return e instanceof ScenarioError ? e.message : `not a ScenarioError: ${e}`;
      }
      return 'no error';
    };
    expect(error([{ deletePVC: { namespace: 'shop', name: 'nope' } }])).toMatch(
      /steps\[0\]\.deletePVC\.name.*persistentvolumeclaims "nope" not found/,
    );
    expect(error([{ deletePod: { name: 'nope' } }])).toMatch(
      /steps\[0\]\.deletePod\.name.*pods "nope" not found/,
    );
    expect(error([{ deleteNamespace: { name: 'nope' } }])).toMatch(/namespaces "nope" not found/);
    expect(error([{ setReclaimPolicy: { reclaimPolicy: 'Retain' } }])).toMatch(
      /steps\[0\]\.setReclaimPolicy\.storageClass.*give either storageClass or volume/,
    );
  });
});
