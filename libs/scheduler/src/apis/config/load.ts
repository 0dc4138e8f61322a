/**
 * Loading a kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration into resolved profiles:
 * strict decoding, v1 defaulting (plugin sets merged into the default multiPoint set, plugin
 * args defaulted), upstream validation, then the framework's per-extension-point resolution.
 */
import { compareVersions, FeatureSet } from '../../features';
import type { PluginDescriptor } from '../../framework/runtime/registry';
import { decodeConfiguration } from './decode';
import {
  defaultMultiPointPlugins,
  IN_TREE_ARGS_PLUGINS,
  KNOWN_IN_TREE_PLUGINS,
  removedPlugins,
} from './default-plugins';
import { ConfigValidationError, invalidValue, type ConfigFieldError } from './errors';
import { mergePluginSet, PLUGIN_SET_FIELDS, type MergedPluginSet } from './merge';
import { resolveFrameworkPlugins } from './resolve';
import {
  CONFIG_API_VERSION,
  CONFIG_GROUP,
  DEFAULT_SCHEDULER_NAME,
  EXTENSION_POINTS,
  type KubeSchedulerConfigurationInput,
  type PluginSetField,
  type ResolvedConfiguration,
  type ResolvedProfile,
} from './types';

export interface LoadOptions {
  /** Plugins available to profiles, by name (the in-tree registry). */
  registry: ReadonlyMap<string, PluginDescriptor>;
  /** Compatibility version and gates; defaults to the newest version. */
  features?: FeatureSet;
}

interface DefaultedPluginConfig {
  name: string;
  /** Defaulted args (kind/apiVersion stripped), or the raw args when nothing can default them. */
  args: unknown;
  /** Whether this entry came from the user (validated) or was appended by defaulting. */
  fromUser: boolean;
}

interface DefaultedProfile {
  schedulerName?: string;
  percentageOfNodesToScore?: number;
  plugins: Record<PluginSetField, MergedPluginSet>;
  pluginConfig: DefaultedPluginConfig[];
}

const DEFAULT_PARALLELISM = 16;
const DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE = 0;
const DEFAULT_POD_INITIAL_BACKOFF_SECONDS = 1;
const DEFAULT_POD_MAX_BACKOFF_SECONDS = 10;

function argsKindOf(
  name: string,
  registry: ReadonlyMap<string, PluginDescriptor>,
  features: FeatureSet,
): boolean {
  const d = registry.get(name);
  if (!d) return IN_TREE_ARGS_PLUGINS.has(name);
  if (d.argsSince !== undefined && compareVersions(features.version, d.argsSince) < 0) return false;
  return d.argsKind !== undefined || d.defaultArgs !== undefined;
}

/**
 * Upstream decodes args as `<Name>Args` of kubescheduler.config.k8s.io/v1 (when that kind
 * exists); an explicit kind/apiVersion must agree. Returns the args without type meta.
 */
function decodeArgs(
  name: string,
  raw: Record<string, unknown> | undefined,
  path: string,
  errs: ConfigFieldError[],
): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  const { kind, apiVersion, ...rest } = raw;
  const expectedKind = `${name}Args`;
  const group = typeof apiVersion === 'string' ? apiVersion.split('/')[0] : CONFIG_GROUP;
  const gotKind = typeof kind === 'string' && kind !== '' ? kind : expectedKind;
  if (group !== CONFIG_GROUP || gotKind !== expectedKind) {
    errs.push({
      field: path,
      message: `args for plugin ${name} were not of type ${expectedKind}.${CONFIG_GROUP}, got ${gotKind}.${group}`,
    });
  } else if (typeof apiVersion === 'string' && apiVersion !== CONFIG_API_VERSION) {
    errs.push({
      field: path,
      message: `decoding args for plugin ${name}: unsupported version "${apiVersion}" (only ${CONFIG_API_VERSION})`,
    });
  }
  return rest;
}

function applyArgsDefaults(
  name: string,
  args: unknown,
  path: string,
  registry: ReadonlyMap<string, PluginDescriptor>,
  features: FeatureSet,
  errs: ConfigFieldError[],
): unknown {
  const d = registry.get(name);
  if (!d?.defaultArgs) return args;
  try {
    return d.defaultArgs(args, features);
  } catch (e) {
    // Descriptors throw on args they cannot decode (e.g. unknown fields under strict decoding).
    errs.push({ field: path, message: `decoding args for plugin ${name}: ${(e as Error).message}` });
    return args;
  }
}

function defaultProfile(
  profile: NonNullable<KubeSchedulerConfigurationInput['profiles']>[number],
  path: string,
  opts: Required<LoadOptions>,
  errs: ConfigFieldError[],
): DefaultedProfile {
  const { registry, features } = opts;
  const plugins = {} as Record<PluginSetField, MergedPluginSet>;
  for (const field of PLUGIN_SET_FIELDS) {
    const defaults =
      field === 'multiPoint' ? { enabled: defaultMultiPointPlugins(features) } : { enabled: [] };
    plugins[field] = mergePluginSet(defaults, profile.plugins?.[field]);
  }

  const pluginConfig: DefaultedPluginConfig[] = [];
  const configured = new Set<string>();
  (profile.pluginConfig ?? []).forEach((pc, j) => {
    const argsPath = `${path}.pluginConfig[${j}].args`;
    configured.add(pc.name);
    if (!argsKindOf(pc.name, registry, features)) {
      // No args kind registered: upstream keeps the args undecoded and passes them through.
      pluginConfig.push({ name: pc.name, args: pc.args, fromUser: true });
      return;
    }
    const decoded = decodeArgs(pc.name, pc.args ?? {}, argsPath, errs);
    pluginConfig.push({
      name: pc.name,
      args: applyArgsDefaults(pc.name, decoded, argsPath, registry, features, errs),
      fromUser: true,
    });
  });

  // Every enabled plugin with an args kind and no explicit config gets its defaulted args.
  const enabledNames = new Set<string>();
  for (const field of PLUGIN_SET_FIELDS) for (const p of plugins[field].enabled) enabledNames.add(p.name);
  for (const name of [...enabledNames].sort()) {
    if (configured.has(name) || !registry.get(name)?.defaultArgs || !argsKindOf(name, registry, features))
      continue;
    const args = applyArgsDefaults(name, undefined, `${path}.pluginConfig`, registry, features, errs);
    pluginConfig.push({ name, args, fromUser: false });
  }

  return {
    schedulerName: profile.schedulerName,
    percentageOfNodesToScore: profile.percentageOfNodesToScore,
    plugins,
    pluginConfig,
  };
}

function validatePercentage(field: string, value: number | undefined, errs: ConfigFieldError[]): void {
  if (value !== undefined && (value < 0 || value > 100))
    errs.push({ field, message: invalidValue(value, 'not in valid range [0-100]') });
}

function sameQueueSort(a: MergedPluginSet, b: MergedPluginSet): boolean {
  const key = (s: MergedPluginSet) =>
    JSON.stringify([s.enabled.map((p) => [p.name, p.weight ?? null]), s.disabled]);
  return key(a) === key(b);
}

function validate(
  cfg: KubeSchedulerConfigurationInput,
  parallelism: number,
  podInitialBackoffSeconds: number,
  podMaxBackoffSeconds: number,
  profiles: DefaultedProfile[],
  opts: Required<LoadOptions>,
): ConfigFieldError[] {
  const errs: ConfigFieldError[] = [];
  const { registry, features } = opts;
  if (parallelism <= 0)
    errs.push({
      field: 'parallelism',
      message: invalidValue(parallelism, 'should be an integer value greater than zero'),
    });

  const removed = removedPlugins(features.version);
  const seenNames = new Map<string, number>();
  profiles.forEach((profile, i) => {
    const path = `profiles[${i}]`;
    if (!profile.schedulerName) errs.push({ field: `${path}.schedulerName`, message: 'Required value' });
    validatePercentage(`${path}.percentageOfNodesToScore`, profile.percentageOfNodesToScore, errs);
    for (const point of EXTENSION_POINTS) {
      profile.plugins[point].enabled.forEach((p, k) => {
        if (removed.includes(p.name)) {
          errs.push({
            field: `${path}.plugins.${point}.enabled[${p.sourceIndex ?? k}]`,
            message: invalidValue(
              p.name,
              `was invalid in version "${CONFIG_API_VERSION}" (KubeSchedulerConfiguration is version "${cfg.apiVersion}")`,
            ),
          });
        }
      });
    }
    const seenConfig = new Set<string>();
    profile.pluginConfig.forEach((pc, j) => {
      const pcPath = `${path}.pluginConfig[${j}]`;
      if (seenConfig.has(pc.name))
        errs.push({ field: pcPath, message: `Duplicate value: ${JSON.stringify(pc.name)}` });
      seenConfig.add(pc.name);
      if (removed.includes(pc.name)) {
        errs.push({
          field: pcPath,
          message: invalidValue(
            pc.name,
            `was invalid in version "${CONFIG_API_VERSION}" (KubeSchedulerConfiguration is version "${cfg.apiVersion}")`,
          ),
        });
        return;
      }
      const d = registry.get(pc.name);
      // Args of a kind the release does not register stay undecoded: nothing to validate.
      if (pc.fromUser && d?.validateArgs && argsKindOf(pc.name, registry, features)) {
        for (const e of d.validateArgs(pc.args, features)) {
          errs.push({ field: e.field ? `${pcPath}.args.${e.field}` : `${pcPath}.args`, message: e.message });
        }
      }
    });
    const name = profile.schedulerName ?? '';
    const first = seenNames.get(name);
    if (first !== undefined)
      errs.push({
        field: `${path}.schedulerName`,
        message: `Duplicate value: "profiles[${first}].schedulerName"`,
      });
    seenNames.set(name, i);
  });

  // Every profile must sort the queue the same way, with the same args.
  if (profiles.length > 0) {
    const canon = profiles[0].plugins.queueSort;
    if (canon.enabled.length > 1) {
      errs.push({
        field: 'profiles[0].plugins.queueSort.Enabled',
        message: invalidValue(canon.enabled.length, 'only one queue sort plugin can be enabled'),
      });
    }
    const queueSortName = canon.enabled[0]?.name;
    const argsOf = (p: DefaultedProfile) =>
      JSON.stringify(p.pluginConfig.find((c) => c.name === queueSortName)?.args ?? null);
    for (let i = 1; i < profiles.length; i++) {
      if (!sameQueueSort(canon, profiles[i].plugins.queueSort)) {
        errs.push({
          field: `profiles[${i}].plugins.queueSort`,
          message: 'Invalid value: has to match for all profiles',
        });
      }
      if (
        queueSortName &&
        profiles[i].pluginConfig.some((c) => c.name === queueSortName) &&
        argsOf(profiles[i]) !== argsOf(profiles[0])
      ) {
        errs.push({
          field: `profiles[${i}].pluginConfig.args`,
          message: 'Invalid value: has to match for all profiles',
        });
      }
    }
  }

  validatePercentage('percentageOfNodesToScore', cfg.percentageOfNodesToScore, errs);
  if (podInitialBackoffSeconds <= 0) {
    errs.push({
      field: 'podInitialBackoffSeconds',
      message: invalidValue(podInitialBackoffSeconds, 'must be greater than 0'),
    });
  }
  if (podMaxBackoffSeconds < podInitialBackoffSeconds) {
    errs.push({
      field: 'podMaxBackoffSeconds',
      message: invalidValue(
        podMaxBackoffSeconds,
        'must be greater than or equal to PodInitialBackoffSeconds',
      ),
    });
  }
  if ((cfg.extenders ?? []).length > 0) {
    errs.push({
      field: 'extenders',
      message: 'Unsupported value: scheduler extenders are not supported by the simulation',
    });
  }
  return errs;
}

/**
 * Loads a KubeSchedulerConfiguration given as YAML/JSON text or an already-parsed object.
 * Throws ConfigValidationError listing every problem of the first failing phase
 * (decoding, args decoding, validation, then the first framework error of a profile).
 */
export function loadSchedulerConfiguration(
  input: string | unknown,
  options: LoadOptions,
): ResolvedConfiguration {
  const opts: Required<LoadOptions> = {
    registry: options.registry,
    features: options.features ?? new FeatureSet(),
  };
  const cfg = decodeConfiguration(input);

  const rawProfiles = cfg.profiles && cfg.profiles.length > 0 ? cfg.profiles : [{}];
  if (rawProfiles.length === 1 && rawProfiles[0].schedulerName === undefined) {
    rawProfiles[0] = { ...rawProfiles[0], schedulerName: DEFAULT_SCHEDULER_NAME };
  }
  const argsErrors: ConfigFieldError[] = [];
  const profiles = rawProfiles.map((p, i) => defaultProfile(p, `profiles[${i}]`, opts, argsErrors));
  if (argsErrors.length) throw new ConfigValidationError(argsErrors);

  const parallelism = cfg.parallelism ?? DEFAULT_PARALLELISM;
  const podInitialBackoffSeconds = cfg.podInitialBackoffSeconds ?? DEFAULT_POD_INITIAL_BACKOFF_SECONDS;
  const podMaxBackoffSeconds = cfg.podMaxBackoffSeconds ?? DEFAULT_POD_MAX_BACKOFF_SECONDS;
  const errs = validate(cfg, parallelism, podInitialBackoffSeconds, podMaxBackoffSeconds, profiles, opts);
  if (errs.length) throw new ConfigValidationError(errs);

  const known = new Set([...KNOWN_IN_TREE_PLUGINS, ...opts.registry.keys()]);
  const resolved = profiles.map((profile, i): ResolvedProfile => {
    const schedulerName = profile.schedulerName as string;
    const plugins = resolveFrameworkPlugins(
      {
        profilePath: `profiles[${i}]`,
        schedulerName,
        version: opts.features.version,
        isKnown: (n) => known.has(n),
      },
      profile.plugins,
    );
    // Only plugins the profile enables receive args (upstream hands args to needed plugins only).
    const needed = new Set<string>();
    for (const field of PLUGIN_SET_FIELDS) for (const p of profile.plugins[field].enabled) needed.add(p.name);
    const pluginArgs = new Map<string, unknown>();
    for (const pc of profile.pluginConfig)
      if (needed.has(pc.name) && pc.args !== undefined) pluginArgs.set(pc.name, pc.args);
    const out: ResolvedProfile = { schedulerName, plugins, pluginArgs };
    if (profile.percentageOfNodesToScore !== undefined)
      out.percentageOfNodesToScore = profile.percentageOfNodesToScore;
    return out;
  });

  return {
    parallelism,
    percentageOfNodesToScore: cfg.percentageOfNodesToScore ?? DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE,
    podInitialBackoffSeconds,
    podMaxBackoffSeconds,
    profiles: resolved,
  };
}

/** The profile upstream runs when no configuration is given ("default-scheduler", v1 defaults). */
export function defaultConfiguration(options: LoadOptions): ResolvedConfiguration {
  return loadSchedulerConfiguration(
    { apiVersion: CONFIG_API_VERSION, kind: 'KubeSchedulerConfiguration' },
    options,
  );
}
