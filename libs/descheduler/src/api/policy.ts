/**
 * DeschedulerPolicy `descheduler/v1alpha2`, validated and defaulted as the descheduler loads it:
 * every pluginConfig's args checked by its plugin's schema, DefaultEvictor added to each profile's
 * filter and preEvictionFilter points (with its default args when none are given).
 */
import { z } from 'zod';
import { PLUGIN_REGISTRY, type RegisteredPlugin } from '../plugins/registry';
import { DEFAULT_EVICTOR, selectorTextSchema } from '../plugins/defaultevictor/args';
import { PolicyError, formatPath, uintSchema } from './schema';

export const POLICY_API_VERSION = 'descheduler/v1alpha2';
export const EXTENSION_POINTS = ['deschedule', 'balance', 'filter', 'preEvictionFilter'] as const;
export type PolicyExtensionPoint = (typeof EXTENSION_POINTS)[number];
/** Sort extension points upstream declares but runs no plugin for. */
const UNUSED_POINTS = ['presort', 'sort'] as const;

const pluginSetSchema = z.strictObject({
  enabled: z.array(z.string()).nullish(),
  disabled: z.array(z.string()).nullish(),
});

const metricsProviderSchema = z.strictObject({
  source: z.string().optional(),
  prometheus: z
    .strictObject({
      url: z.string().optional(),
      authToken: z
        .strictObject({
          secretReference: z
            .strictObject({ namespace: z.string().optional(), name: z.string().optional() })
            .nullish(),
        })
        .nullish(),
    })
    .nullish(),
});

const topLevelSchema = z
  .strictObject({
    apiVersion: z.literal(POLICY_API_VERSION, { error: `must be "${POLICY_API_VERSION}"` }),
    kind: z.literal('DeschedulerPolicy', { error: 'must be "DeschedulerPolicy"' }),
    profiles: z.array(z.unknown()).nullish(),
    nodeSelector: selectorTextSchema.nullish(),
    maxNoOfPodsToEvictPerNode: uintSchema.nullish(),
    maxNoOfPodsToEvictPerNamespace: uintSchema.nullish(),
    maxNoOfPodsToEvictTotal: uintSchema.nullish(),
    evictionFailureEventNotification: z.boolean().nullish(),
    metricsCollector: z.strictObject({ enabled: z.boolean().optional() }).nullish(),
    metricsProviders: z.array(metricsProviderSchema).nullish(),
    gracePeriodSeconds: z.number().int({ error: 'must be an integer' }).nullish(),
  })
  .superRefine((p, ctx) => {
    const seen = new Set<string>();
    (p.metricsProviders ?? []).forEach((provider, i) => {
      const source = provider.source ?? '';
      if (seen.has(source))
        ctx.addIssue({
          code: 'custom',
          path: ['metricsProviders', i],
          message: `metric provider "${source}" is already configured, each source can be configured only once`,
        });
      seen.add(source);
      if (source === 'KubernetesMetrics' && p.metricsCollector?.enabled)
        ctx.addIssue({
          code: 'custom',
          path: ['metricsProviders', i],
          message: 'it is not allowed to combine metrics provider when metrics collector is enabled',
        });
      if (source === 'Prometheus') {
        const prom = provider.prometheus;
        const at = ['metricsProviders', i, 'prometheus'];
        if (!prom)
          ctx.addIssue({
            code: 'custom',
            path: at,
            message: 'prometheus configuration is required when prometheus source is enabled',
          });
        else if (!prom.url)
          ctx.addIssue({
            code: 'custom',
            path: [...at, 'url'],
            message: 'prometheus URL is required when prometheus is enabled',
          });
        if (prom?.authToken) {
          const ref = prom.authToken.secretReference;
          if (!ref)
            ctx.addIssue({
              code: 'custom',
              path: [...at, 'authToken'],
              message: 'prometheus authToken secret is expected to be set when authToken field is',
            });
          else if (!ref.name || !ref.namespace)
            ctx.addIssue({
              code: 'custom',
              path: [...at, 'authToken', 'secretReference'],
              message: 'prometheus authToken secret reference does not set both namespace and name',
            });
        }
      }
    });
  });

const profileShapeSchema = z.strictObject({
  name: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
  pluginConfig: z.array(z.strictObject({ name: z.string(), args: z.unknown().optional() })).nullish(),
  plugins: z.record(z.string(), pluginSetSchema).nullish(),
});

/** One pluginConfig entry with its args validated and defaulted. */
export interface PluginConfig {
  name: string;
  args: Record<string, unknown>;
}

export interface PluginSet {
  enabled: string[];
  disabled: string[];
}

export interface DeschedulerProfile {
  name: string;
  pluginConfig: PluginConfig[];
  plugins: Record<PolicyExtensionPoint, PluginSet>;
}

/** The policy once loaded: plain data, JSON-serialisable. */
export interface DeschedulerPolicy {
  apiVersion: typeof POLICY_API_VERSION;
  kind: 'DeschedulerPolicy';
  profiles: DeschedulerProfile[];
  nodeSelector?: string;
  maxNoOfPodsToEvictPerNode?: number;
  maxNoOfPodsToEvictPerNamespace?: number;
  maxNoOfPodsToEvictTotal?: number;
  gracePeriodSeconds?: number;
  evictionFailureEventNotification?: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The plugin kinds an extension point accepts. */
const POINT_KINDS: Record<PolicyExtensionPoint, RegisteredPlugin['kind']> = {
  deschedule: 'deschedule',
  balance: 'balance',
  filter: 'evictor',
  preEvictionFilter: 'evictor',
};

/** Plugin set keys are matched without regard to case, as upstream's decoder does (`preevictionfilter`). */
function pointOf(key: string): PolicyExtensionPoint | (typeof UNUSED_POINTS)[number] | undefined {
  const lower = key.toLowerCase();
  return [...EXTENSION_POINTS, ...UNUSED_POINTS].find((p) => p.toLowerCase() === lower);
}

function parseProfile(
  raw: unknown,
  index: number,
  registry: Readonly<Record<string, RegisteredPlugin>>,
): DeschedulerProfile {
  const at = `profiles[${index}]`;
  const profileName = isRecord(raw) && typeof raw.name === 'string' ? raw.name : undefined;
  const shape = profileShapeSchema.safeParse(raw);
  if (!shape.success) {
    const issue = shape.error.issues[0];
    const field = formatPath('', issue.path);
    throw new PolicyError(formatPath(at, issue.path), issue.message, profileName ?? '', undefined, field);
  }
  const profile = shape.data;
  const name = profile.name;
  const fail = (path: string, detail: string, plugin?: string, field?: string): never => {
    throw new PolicyError(`${at}.${path}`, detail, name, plugin, field);
  };

  const pluginConfig: PluginConfig[] = [];
  (profile.pluginConfig ?? []).forEach((pc, i) => {
    const label = `pluginConfig ${JSON.stringify(pc.name)}`;
    const entry = registry[pc.name];
    if (!entry) fail(`pluginConfig[${i}]`, `plugin ${pc.name} in pluginConfig not registered`, label);
    const args = pc.args ?? {};
    if (!isRecord(args)) fail(`pluginConfig[${i}].args`, 'must be an object', label, 'args');
    const parsed = entry.argsSchema.safeParse(args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = formatPath('args', issue.path);
      fail(`pluginConfig[${i}].${field}`, issue.message, label, field);
    }
    // Upstream's getPluginConfig takes the first entry of a name.
    if (!pluginConfig.some((c) => c.name === pc.name))
      pluginConfig.push({ name: pc.name, args: (parsed as { data: Record<string, unknown> }).data });
  });

  const plugins = Object.fromEntries(
    EXTENSION_POINTS.map((p) => [p, { enabled: [] as string[], disabled: [] as string[] }]),
  ) as Record<PolicyExtensionPoint, PluginSet>;
  for (const [key, set] of Object.entries(profile.plugins ?? {})) {
    const point = pointOf(key);
    if (!point)
      fail(
        `plugins.${key}`,
        `unknown extension point (one of ${EXTENSION_POINTS.join(', ')})`,
        undefined,
        `plugins.${key}`,
      );
    if (point === 'presort' || point === 'sort' || point === undefined) continue;
    plugins[point].enabled.push(...(set.enabled ?? []));
    plugins[point].disabled.push(...(set.disabled ?? []));
  }

  // DefaultEvictor is always a filter and a preEvictionFilter, first unless named already.
  for (const point of ['filter', 'preEvictionFilter'] as const)
    if (!plugins[point].enabled.includes(DEFAULT_EVICTOR)) plugins[point].enabled.unshift(DEFAULT_EVICTOR);
  if (!pluginConfig.some((c) => c.name === DEFAULT_EVICTOR))
    pluginConfig.unshift({
      name: DEFAULT_EVICTOR,
      args: registry[DEFAULT_EVICTOR].argsSchema.parse({}) as Record<string, unknown>,
    });

  for (const point of EXTENSION_POINTS) {
    plugins[point].enabled.forEach((pluginName, i) => {
      const path = `plugins.${point}.enabled[${i}]`;
      const label = `${path} ${JSON.stringify(pluginName)}`;
      const entry = registry[pluginName];
      if (!entry || entry.kind !== POINT_KINDS[point])
        fail(
          path,
          `profile ${JSON.stringify(name)} configures ${point} extension point of non-existing plugins: [${pluginName}]`,
          label,
        );
      if (!pluginConfig.some((c) => c.name === pluginName))
        fail(
          path,
          `unable to find ${JSON.stringify(pluginName)} plugin config: add a pluginConfig entry named ${pluginName}`,
          label,
        );
    });
  }
  return { name, pluginConfig, plugins };
}

/**
 * Validates a DeschedulerPolicy object (the caller parses YAML) and applies upstream's defaults.
 * Throws PolicyError naming profile, plugin and field.
 */
export function parsePolicy(
  input: unknown,
  registry: Readonly<Record<string, RegisteredPlugin>> = PLUGIN_REGISTRY,
): DeschedulerPolicy {
  if (!isRecord(input)) throw new PolicyError('', 'a DeschedulerPolicy must be an object');
  const top = topLevelSchema.safeParse(input);
  if (!top.success) {
    const issue = top.error.issues[0];
    throw new PolicyError(formatPath('', issue.path), issue.message);
  }
  const t = top.data;
  const policy: DeschedulerPolicy = {
    apiVersion: POLICY_API_VERSION,
    kind: 'DeschedulerPolicy',
    profiles: (t.profiles ?? []).map((p, i) => parseProfile(p, i, registry)),
  };
  if (t.nodeSelector != null) policy.nodeSelector = t.nodeSelector;
  if (t.maxNoOfPodsToEvictPerNode != null) policy.maxNoOfPodsToEvictPerNode = t.maxNoOfPodsToEvictPerNode;
  if (t.maxNoOfPodsToEvictPerNamespace != null)
    policy.maxNoOfPodsToEvictPerNamespace = t.maxNoOfPodsToEvictPerNamespace;
  if (t.maxNoOfPodsToEvictTotal != null) policy.maxNoOfPodsToEvictTotal = t.maxNoOfPodsToEvictTotal;
  if (t.gracePeriodSeconds != null) policy.gracePeriodSeconds = t.gracePeriodSeconds;
  if (t.evictionFailureEventNotification != null)
    policy.evictionFailureEventNotification = t.evictionFailureEventNotification;
  return policy;
}
