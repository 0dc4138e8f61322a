/**
 * Strict decoding of a KubeSchedulerConfiguration (YAML/JSON text or a parsed object), as
 * upstream's strict codec: unknown fields and wrong types are errors naming the field path.
 */
import type * as Yaml from 'yaml';
import { ConfigValidationError, type ConfigFieldError } from './errors';
import type {
  KubeSchedulerConfigurationInput,
  KubeSchedulerProfileConfig,
  PluginConfigEntry,
  PluginRef,
  PluginSetConfig,
  PluginsConfig,
} from './types';
import { CONFIG_API_VERSION, CONFIG_GROUP, CONFIG_KIND } from './types';
import { PLUGIN_SET_FIELDS } from './merge';

type Kind = 'string' | 'int32' | 'int64' | 'bool' | 'object' | 'array';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

class Decoder {
  readonly errors: ConfigFieldError[] = [];

  fail(field: string, message: string): void {
    this.errors.push({ field, message });
  }

  isObject(v: unknown): v is Record<string, unknown> {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  }

  /** Checks `value` is a JSON object with only `allowed` keys; returns it or undefined. */
  object(value: unknown, path: string, allowed: readonly string[]): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    if (!this.isObject(value)) {
      this.fail(path, `invalid type: expected object, got ${describe(value)}`);
      return undefined;
    }
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.fail(join(path, key), `unknown field "${join(path, key)}"`);
    }
    return value;
  }

  /** A scalar of the given kind; null/absent → undefined (Go leaves the pointer nil). */
  scalar<T>(value: unknown, path: string, kind: Kind): T | undefined {
    if (value === undefined || value === null) return undefined;
    const ok =
      kind === 'string'
        ? typeof value === 'string'
        : kind === 'bool'
          ? typeof value === 'boolean'
          : kind === 'int32'
            ? Number.isInteger(value) && (value as number) >= INT32_MIN && (value as number) <= INT32_MAX
            : kind === 'int64'
              ? Number.isSafeInteger(value)
              : kind === 'object'
                ? this.isObject(value)
                : Array.isArray(value);
    if (!ok) {
      this.fail(path, `invalid type: expected ${kind}, got ${describe(value)}`);
      return undefined;
    }
    return value as T;
  }

  array(value: unknown, path: string): unknown[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.fail(path, `invalid type: expected array, got ${describe(value)}`);
      return [];
    }
    return value;
  }
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? `number ${v}` : `number ${v}`;
  return typeof v;
}

function withoutUndefined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

const TOP_FIELDS = [
  'apiVersion',
  'kind',
  'parallelism',
  'leaderElection',
  'clientConnection',
  'enableProfiling',
  'enableContentionProfiling',
  'percentageOfNodesToScore',
  'podInitialBackoffSeconds',
  'podMaxBackoffSeconds',
  'profiles',
  'extenders',
] as const;
const PROFILE_FIELDS = ['schedulerName', 'percentageOfNodesToScore', 'plugins', 'pluginConfig'] as const;
const PLUGIN_SET_KEYS = ['enabled', 'disabled'] as const;
const PLUGIN_FIELDS = ['name', 'weight'] as const;
const PLUGIN_CONFIG_FIELDS = ['name', 'args'] as const;

function decodePlugin(d: Decoder, raw: unknown, path: string): PluginRef {
  const o = d.object(raw, path, PLUGIN_FIELDS) ?? {};
  return withoutUndefined({
    name: d.scalar<string>(o.name, join(path, 'name'), 'string') ?? '',
    weight: d.scalar<number>(o.weight, join(path, 'weight'), 'int32'),
  });
}

function decodePlugins(d: Decoder, raw: unknown, path: string): PluginsConfig | undefined {
  const o = d.object(raw, path, PLUGIN_SET_FIELDS);
  if (!o) return undefined;
  const out: PluginsConfig = {};
  for (const field of PLUGIN_SET_FIELDS) {
    const setPath = join(path, field);
    const set = d.object(o[field], setPath, PLUGIN_SET_KEYS);
    if (!set) continue;
    const decoded: PluginSetConfig = {};
    if (set.enabled != null) {
      decoded.enabled = d
        .array(set.enabled, join(setPath, 'enabled'))
        .map((p, i) => decodePlugin(d, p, `${setPath}.enabled[${i}]`));
    }
    if (set.disabled != null) {
      // Disabled entries are full Plugin objects upstream; their weight is ignored.
      decoded.disabled = d
        .array(set.disabled, join(setPath, 'disabled'))
        .map((p, i) => ({ name: decodePlugin(d, p, `${setPath}.disabled[${i}]`).name }));
    }
    out[field] = decoded;
  }
  return out;
}

function decodeProfile(d: Decoder, raw: unknown, path: string): KubeSchedulerProfileConfig {
  const o = d.object(raw, path, PROFILE_FIELDS) ?? {};
  const pluginConfig =
    o.pluginConfig == null
      ? undefined
      : d.array(o.pluginConfig, join(path, 'pluginConfig')).map((pc, i): PluginConfigEntry => {
          const p = `${path}.pluginConfig[${i}]`;
          const e = d.object(pc, p, PLUGIN_CONFIG_FIELDS) ?? {};
          return withoutUndefined({
            name: d.scalar<string>(e.name, join(p, 'name'), 'string') ?? '',
            args: d.scalar<Record<string, unknown>>(e.args, join(p, 'args'), 'object'),
          });
        });
  return withoutUndefined({
    schedulerName: d.scalar<string>(o.schedulerName, join(path, 'schedulerName'), 'string'),
    percentageOfNodesToScore: d.scalar<number>(
      o.percentageOfNodesToScore,
      join(path, 'percentageOfNodesToScore'),
      'int32',
    ),
    plugins: decodePlugins(d, o.plugins, join(path, 'plugins')),
    pluginConfig,
  });
}

/**
 * JSON text as JSON.parse reads it, when it is a JSON object whose objects repeat no key (the
 * YAML parser rejects a repeated key, as upstream's strict decoding does); undefined otherwise,
 * for the YAML parser to read or reject. Spares a profile file in JSON the YAML parser's ~70
 * modules. Valid JSON has one colon outside strings per object member, so fewer members than
 * such colons means a key was repeated.
 */
function parsedJsonObject(text: string): unknown {
  if (!/^\s*\{/.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return memberCount(parsed) === colonsOutsideStrings(text) ? parsed : undefined;
}

function memberCount(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + memberCount(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  for (const key of Object.keys(value)) count += 1 + memberCount((value as Record<string, unknown>)[key]);
  return count;
}

function colonsOutsideStrings(text: string): number {
  let colons = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x3a) colons++;
  }
  return colons;
}

/** Parses text (YAML, of which JSON is a subset) or takes an object, and decodes it strictly. */
export function decodeConfiguration(input: string | unknown): KubeSchedulerConfigurationInput {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      // Loaded here only: a run without a profile file in YAML never needs the YAML parser.
      raw = parsedJsonObject(input) ?? (require('yaml') as typeof Yaml).parse(input);
    } catch (e) {
      throw new ConfigValidationError([
        { field: '', message: `couldn't parse configuration: ${(e as Error).message}` },
      ]);
    }
  }
  const d = new Decoder();
  if (!d.isObject(raw)) {
    throw new ConfigValidationError([
      { field: '', message: `configuration must be an object, got ${describe(raw)}` },
    ]);
  }
  // Type meta first: upstream cannot pick a decoder without it.
  const apiVersion = d.scalar<string>(raw.apiVersion, 'apiVersion', 'string');
  const kind = d.scalar<string>(raw.kind, 'kind', 'string');
  if (!kind) d.fail('kind', "Object 'Kind' is missing");
  else if (kind !== CONFIG_KIND)
    d.fail('kind', `no kind "${kind}" is registered for version "${apiVersion ?? ''}"`);
  if (!apiVersion) d.fail('apiVersion', "Object 'apiVersion' is missing");
  else if (apiVersion !== CONFIG_API_VERSION) {
    const group = apiVersion.split('/')[0];
    d.fail(
      'apiVersion',
      group === CONFIG_GROUP
        ? `unsupported version "${apiVersion}": only ${CONFIG_API_VERSION} is supported`
        : `no kind "${kind ?? ''}" is registered for version "${apiVersion}"`,
    );
  }
  if (d.errors.length) throw new ConfigValidationError(d.errors);

  d.object(raw, '', TOP_FIELDS);
  d.scalar(raw.leaderElection, 'leaderElection', 'object');
  d.scalar(raw.clientConnection, 'clientConnection', 'object');
  const cfg: KubeSchedulerConfigurationInput = withoutUndefined({
    apiVersion: apiVersion as string,
    kind: kind as string,
    parallelism: d.scalar<number>(raw.parallelism, 'parallelism', 'int32'),
    percentageOfNodesToScore: d.scalar<number>(
      raw.percentageOfNodesToScore,
      'percentageOfNodesToScore',
      'int32',
    ),
    podInitialBackoffSeconds: d.scalar<number>(
      raw.podInitialBackoffSeconds,
      'podInitialBackoffSeconds',
      'int64',
    ),
    podMaxBackoffSeconds: d.scalar<number>(raw.podMaxBackoffSeconds, 'podMaxBackoffSeconds', 'int64'),
    enableProfiling: d.scalar<boolean>(raw.enableProfiling, 'enableProfiling', 'bool'),
    enableContentionProfiling: d.scalar<boolean>(
      raw.enableContentionProfiling,
      'enableContentionProfiling',
      'bool',
    ),
    extenders: raw.extenders == null ? undefined : d.array(raw.extenders, 'extenders'),
    profiles:
      raw.profiles == null
        ? undefined
        : d.array(raw.profiles, 'profiles').map((p, i) => decodeProfile(d, p, `profiles[${i}]`)),
  });
  if (d.errors.length) throw new ConfigValidationError(d.errors);
  return cfg;
}
