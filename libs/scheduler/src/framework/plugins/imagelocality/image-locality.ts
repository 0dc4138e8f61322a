/**
 * ImageLocality (upstream imagelocality/image_locality.go): favours nodes that already hold the
 * pod's container images, weighted by image size and damped by how widely the image is spread.
 */
import type { Container, Pod } from '@schedlab/k8s';
import type { CycleState } from '../../cycle-state';
import {
  MAX_NODE_SCORE,
  type Handle,
  type NodeScore,
  type ScorePlugin,
  type UniformScore,
} from '../../interface';
import type { MaybeStatus } from '../../status';
import type { ImageStateSummary, NodeInfo } from '../../types';
import { PluginNames } from '../names';

const MB = 1024 * 1024;
/** Bounds of the score range: typical compressed image sizes. */
export const MIN_THRESHOLD = 23 * MB;
export const MAX_CONTAINER_THRESHOLD = 1000 * MB;

/** Adds the implicit `:latest` tag to an untagged image; nothing else (no registry normalization). */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? name + ':latest' : name;
}

/** Image size scaled by the share of nodes that have it (spreading beats piling onto one node). */
export function scaledImageScore(state: ImageStateSummary, totalNumNodes: number): number {
  return Math.trunc(state.size * (state.numNodes / totalNumNodes));
}

export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  if (sumScores < MIN_THRESHOLD) sumScores = MIN_THRESHOLD;
  else if (sumScores > maxThreshold) sumScores = maxThreshold;
  return Math.trunc((MAX_NODE_SCORE * (sumScores - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

function sumContainers(
  nodeInfo: NodeInfo,
  containers: readonly Container[] | undefined,
  totalNumNodes: number,
): number {
  // A node without images scores 0; skip normalizing the pod's image names for it.
  if (nodeInfo.imageStates.size === 0) return 0;
  let sum = 0;
  for (const c of containers ?? []) {
    const state = nodeInfo.imageStates.get(normalizedImageName(c.image ?? ''));
    if (state) sum += scaledImageScore(state, totalNumNodes);
  }
  return sum;
}

export class ImageLocality implements ScorePlugin {
  readonly name = PluginNames.ImageLocality;

  constructor(private readonly handle: Handle) {}

  score(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): [number, MaybeStatus] {
    const totalNumNodes = this.handle.snapshot().list().length;
    const containers = pod.spec?.containers ?? [];
    let sum = sumContainers(nodeInfo, containers, totalNumNodes);
    let numContainers = containers.length;
    // Init containers count from 1.30; v1.26 looked at app containers only.
    if (this.handle.features.behaviour.imageLocalityCountsInitContainers) {
      const init = pod.spec?.initContainers ?? [];
      sum += sumContainers(nodeInfo, init, totalNumNodes);
      numContainers += init.length;
    }
    // From 1.36 image volumes count like containers.
    for (const image of this.volumeImages(pod)) {
      const state = nodeInfo.imageStates.get(image);
      if (state) sum += scaledImageScore(state, totalNumNodes);
      numContainers++;
    }
    return [calculatePriority(sum, numContainers), null];
  }

  private volumeImages(pod: Pod): string[] {
    if (!this.handle.features.behaviour.imageLocalityCountsImageVolumes) return [];
    const out: string[] = [];
    for (const v of pod.spec?.volumes ?? []) {
      const ref = (v as { image?: { reference?: string } }).image;
      if (ref) out.push(normalizedImageName(ref.reference ?? ''));
    }
    return out;
  }

  /** The images `score` counts for the pod, normalized: its containers' and image volumes'. */
  private podImages(pod: Pod): string[] {
    const images = (pod.spec?.containers ?? []).map((c) => normalizedImageName(c.image ?? ''));
    if (this.handle.features.behaviour.imageLocalityCountsInitContainers) {
      for (const c of pod.spec?.initContainers ?? []) images.push(normalizedImageName(c.image ?? ''));
    }
    images.push(...this.volumeImages(pod));
    return images;
  }

  /** With no image on any node, every node scores as one without the pod's images. */
  uniformScore(_state: CycleState, pod: Pod): UniformScore | undefined {
    if (this.handle.snapshot().anyNodeImages?.() !== false) return undefined;
    const score = calculatePriority(0, this.podImages(pod).length);
    return { raw: score, score };
  }

  /** Same numbers as `score`, with the pod's image names normalized once for all nodes. */
  scoreNodes(_state: CycleState, pod: Pod, nodes: readonly NodeInfo[], scores: NodeScore[]): MaybeStatus {
    const totalNumNodes = this.handle.snapshot().list().length;
    const images = this.podImages(pod);
    const numContainers = images.length;
    const withoutImages = calculatePriority(0, numContainers);
    for (let i = 0; i < nodes.length; i++) {
      const states = nodes[i].imageStates;
      if (states.size === 0) {
        scores[i].score = withoutImages;
        continue;
      }
      let sum = 0;
      for (const image of images) {
        const state = states.get(image);
        if (state) sum += scaledImageScore(state, totalNumNodes);
      }
      scores[i].score = calculatePriority(sum, numContainers);
    }
    return null;
  }

  scoreExtensions(): undefined {
    return undefined;
  }
}
