import { parseKubernetesObjects, type KubeObject, type SkippedObject } from '@schedlab/k8s';
import { buildClusterState, type ClusterState } from '@schedlab/scheduler';
import { attributeTo } from './errors';
import { readInputFile } from './read-input-file';

export interface ClusterDump {
  file: string;
  objects: KubeObject[];
  /** Objects of kinds Schedlab does not know; reported, not fatal. */
  skipped: SkippedObject[];
  state: ClusterState;
}

/** Parses a JSON/YAML cluster dump and applies API-server admission, naming the file on any error. */
export function loadClusterDump(file: string): ClusterDump {
  const text = readInputFile(file);
  const { objects, skipped } = attributeTo(file, () => parseKubernetesObjects(text));
  const state = attributeTo(file, () => buildClusterState(objects));
  return { file, objects, skipped, state };
}

/** One line per skipped object, for stderr. */
export function describeSkipped(file: string, skipped: readonly SkippedObject[]): string[] {
  return skipped.map((s) => {
    const id = s.namespace ? `${s.namespace}/${s.name ?? ''}` : (s.name ?? '<unnamed>');
    return `schedlab: ${file}: ignored ${s.kind} ${id}: ${s.reason}`;
  });
}
