/** Fixtures of the storage what-if specs: examples/storage-lifecycle.yaml and steps they share. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseKubernetesObjects, type KubeObject } from '@schedlab/k8s';

export const storageLifecycleCluster: KubeObject[] = parseKubernetesObjects(
  readFileSync(join(__dirname, '../../../../examples/storage-lifecycle.yaml'), 'utf8'),
).objects;

/** A step applying shop/scratch: a 1Gi WaitForFirstConsumer claim no pod uses. */
export const applyScratchClaim = {
  apply: {
    objects: [
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'scratch', namespace: 'shop' },
        spec: {
          accessModes: ['ReadWriteOnce'],
          storageClassName: 'ssd-delete',
          resources: { requests: { storage: '1Gi' } },
        },
      },
    ],
  },
};
