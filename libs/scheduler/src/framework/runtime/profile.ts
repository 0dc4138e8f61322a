/** The resolved plugin set of one scheduler profile, as the configuration loader produces it. */
export const EXTENSION_POINTS = [
  'preEnqueue',
  'queueSort',
  'preFilter',
  'filter',
  'postFilter',
  'preScore',
  'score',
  'reserve',
  'permit',
  'preBind',
  'bind',
  'postBind',
  // Workload (pod group) scheduling points (placements from 1.36, podGroupPostFilter from 1.37): a
  // single pod's cycle never calls them, but the default profile lists plugins there.
  'placementGenerate',
  'placementScore',
  'podGroupPostFilter',
] as const;

export type ExtensionPoint = (typeof EXTENSION_POINTS)[number];

export interface PluginRef {
  name: string;
  weight?: number;
}

export interface FrameworkProfile {
  schedulerName: string;
  percentageOfNodesToScore?: number;
  plugins: Record<ExtensionPoint, PluginRef[]>;
  /** Defaulted args per plugin name. Plugins without an entry get their descriptor's defaults. */
  pluginArgs: Map<string, unknown>;
}
