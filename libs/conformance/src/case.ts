/** The golden case format of ../shared/conformance (see its generator/README.md). */
export type Family = 'default' | 'profiles' | 'storage' | 'scale' | 'capacity' | 'node-loss' | 'dra';

export interface GoldenConfig {
  featureGates?: Record<string, boolean>;
  percentageOfNodesToScore?: number | null;
  tieBreak?: string;
  order?: string;
  preemption?: boolean;
  schedulerConfiguration?: unknown;
  nodeOrder?: string[];
  plugins?: Record<string, unknown>;
}

export interface GoldenCase {
  name: string;
  family?: Family;
  seed: number;
  kubeSchedulerVersion: string;
  config: GoldenConfig;
  analysis?: { type: string; [k: string]: unknown };
  input: { items: unknown[] };
  expected: unknown;
  summary?: unknown;
}

export function familyOf(c: GoldenCase): Family {
  return c.family ?? 'default';
}

/** "v1.34.4" → "1.34.4": the exact patch, since some reason strings changed within a minor. */
export function compatibilityVersionOf(c: GoldenCase): string {
  return c.kubeSchedulerVersion.replace(/^v/, '');
}
