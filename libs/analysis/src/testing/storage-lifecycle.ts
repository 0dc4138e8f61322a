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

/** A StatefulSet of one replica on a local volume of node-a1 (local-storage: no provisioner, WaitForFirstConsumer). */
export const localCache: KubeObject[] = parseKubernetesObjects(`
apiVersion: v1
kind: List
items:
  - apiVersion: storage.k8s.io/v1
    kind: StorageClass
    metadata: { name: local-storage }
    provisioner: kubernetes.io/no-provisioner
    volumeBindingMode: WaitForFirstConsumer
  - apiVersion: v1
    kind: PersistentVolume
    metadata: { name: local-a1 }
    spec:
      capacity: { storage: 100Gi }
      accessModes: [ReadWriteOnce]
      persistentVolumeReclaimPolicy: Retain
      storageClassName: local-storage
      local: { path: /mnt/disks/ssd1 }
      nodeAffinity:
        required:
          nodeSelectorTerms:
            - matchExpressions: [{ key: kubernetes.io/hostname, operator: In, values: [node-a1] }]
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: { name: cache, namespace: shop }
    spec:
      replicas: 1
      serviceName: cache
      selector: { matchLabels: { app: cache } }
      template:
        metadata: { labels: { app: cache } }
        spec:
          containers: [{ name: c, image: redis, resources: { requests: { cpu: 100m, memory: 128Mi } } }]
      volumeClaimTemplates:
        - metadata: { name: data }
          spec:
            accessModes: [ReadWriteOnce]
            storageClassName: local-storage
            resources: { requests: { storage: 50Gi } }
`).objects;
