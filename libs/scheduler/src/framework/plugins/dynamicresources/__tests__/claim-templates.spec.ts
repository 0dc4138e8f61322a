/**
 * The resourceclaim controller's part before scheduling: names (upstream's proportional cut of
 * long pod and entry names), owner references, adoption of orphaned claims, a missing template,
 * and podNeedsWork's release difference.
 */
import type { Pod } from '@schedlab/k8s';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import {
  claimGenerateName,
  generatedClaimName,
  isClaimForPod,
  POD_CLAIM_NAME_ANNOTATION,
  syncPodClaims,
} from '../claim-templates';

const template = (name: string) => ({
  metadata: { name, namespace: 'default' },
  spec: {
    metadata: { labels: { team: 'ml' } },
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu' } }] } },
  },
});
const pod = (name: string, entries: unknown[], statuses?: unknown[]): Pod =>
  ({
    metadata: { name, namespace: 'default' },
    spec: { containers: [], resourceClaims: entries },
    ...(statuses ? { status: { resourceClaimStatuses: statuses } } : {}),
  }) as unknown as Pod;
const statusesOf = (p: Pod) => (p.status as { resourceClaimStatuses?: unknown[] }).resourceClaimStatuses;
const CURRENT = { checksEveryEntry: true };
const BEFORE_1_36 = { checksEveryEntry: false };

describe('claim names', () => {
  it('<pod>-<entry>- then 5 characters of the generate-name alphabet', () => {
    expect(claimGenerateName('web-0', 'gpu')).toBe('web-0-gpu-');
    expect(generatedClaimName('default', 'web-0', 'gpu')).toMatch(
      /^web-0-gpu-[bcdfghjklmnpqrstvwxz2456789]{5}$/,
    );
    expect(generatedClaimName('default', 'web-0', 'gpu')).not.toBe(
      generatedClaimName('default', 'web-1', 'gpu'),
    );
  });
  it('long names are cut in proportion, joined by one hyphen and none at the end (63 in all)', () => {
    const podName = 'distributed-training-worker-with-a-very-long-name-0'; // 51
    const entry = 'accelerator-claim-for-training'; // 30; base 83 > 57
    const base = claimGenerateName(podName, entry);
    expect(base).toBe(
      `${podName.slice(0, Math.floor((51 * 57) / 83))}-${entry.slice(0, Math.floor((30 * 57) / 83))}`,
    );
    expect(base.endsWith('-')).toBe(false);
    expect(generatedClaimName('default', podName, entry).length).toBeLessThanOrEqual(63);
  });
});

describe('syncPodClaims', () => {
  it('creates the claim from the template, owned by the pod, and records it', () => {
    const objects = new ClusterObjects();
    objects.resourceClaimTemplates.set(template('t'));
    const p = syncPodClaims(
      pod('web-0', [{ name: 'gpu', resourceClaimTemplateName: 't' }]),
      objects,
      CURRENT,
    );
    const name = generatedClaimName('default', 'web-0', 'gpu');
    expect(statusesOf(p)).toEqual([{ name: 'gpu', resourceClaimName: name }]);
    const claim = objects.resourceClaims.get('default', name)!;
    expect(claim.metadata?.labels).toEqual({ team: 'ml' });
    expect(claim.metadata?.annotations).toEqual({ [POD_CLAIM_NAME_ANNOTATION]: 'gpu' });
    expect(isClaimForPod(p, claim)).toBe(true);
    expect(claim.spec).toEqual(template('t').spec.spec);
    // A second pass changes nothing.
    expect(syncPodClaims(p, objects, CURRENT)).toBe(p);
  });
  it('a missing template leaves the pod without statuses (PreEnqueue holds it)', () => {
    const objects = new ClusterObjects();
    const p = pod('web-0', [{ name: 'gpu', resourceClaimTemplateName: 'missing' }]);
    expect(syncPodClaims(p, objects, CURRENT)).toBe(p);
    expect(objects.resourceClaims.size).toBe(0);
  });
  it('adopts a claim created for the entry but never recorded', () => {
    const objects = new ClusterObjects();
    objects.resourceClaimTemplates.set(template('t'));
    objects.resourceClaims.set({
      metadata: {
        name: 'web-0-gpu-abcde',
        namespace: 'default',
        annotations: { [POD_CLAIM_NAME_ANNOTATION]: 'gpu' },
        ownerReferences: [{ kind: 'Pod', name: 'web-0', uid: 'uid-pod-default-web-0', controller: true }],
      },
    });
    const p = syncPodClaims(
      pod('web-0', [{ name: 'gpu', resourceClaimTemplateName: 't' }]),
      objects,
      CURRENT,
    );
    expect(statusesOf(p)).toEqual([{ name: 'gpu', resourceClaimName: 'web-0-gpu-abcde' }]);
    expect(objects.resourceClaims.size).toBe(1);
  });
  it('up to 1.35 an entry recorded as not needed leaves later entries ungenerated; 1.36 looks past it', () => {
    const entries = [
      { name: 'skip', resourceClaimTemplateName: 't' },
      { name: 'gpu', resourceClaimTemplateName: 't' },
    ];
    const statuses = [{ name: 'skip' }];
    const objects = new ClusterObjects();
    objects.resourceClaimTemplates.set(template('t'));
    const before = pod('web-0', entries, statuses);
    expect(syncPodClaims(before, objects, BEFORE_1_36)).toBe(before);
    const after = syncPodClaims(pod('web-0', entries, statuses), objects, CURRENT);
    expect(statusesOf(after)).toEqual([
      { name: 'skip' },
      { name: 'gpu', resourceClaimName: generatedClaimName('default', 'web-0', 'gpu') },
    ]);
  });
  it('a recorded claim the pod does not own is left for the scheduler to refuse', () => {
    const objects = new ClusterObjects();
    objects.resourceClaimTemplates.set(template('t'));
    objects.resourceClaims.set({ metadata: { name: 'other', namespace: 'default' } });
    const p = pod(
      'web-0',
      [{ name: 'gpu', resourceClaimTemplateName: 't' }],
      [{ name: 'gpu', resourceClaimName: 'other' }],
    );
    expect(syncPodClaims(p, objects, CURRENT)).toBe(p);
  });
});
