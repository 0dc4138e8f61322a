import { randomBytes } from 'node:crypto';
import { DEPRECATED_ENV_NAMES, envSchema, type LogLevel, PLATFORM_PORT } from './env';

/** Prometheus' conventional exporter port range starts at 9100; 9464 is the OpenTelemetry exporter's. */
const DEFAULT_WORKER_METRICS_PORT = 9464;

export interface AppConfig {
  nodeEnv: 'development' | 'test' | 'production';
  databaseUrl: string;
  redisUrl: string;
  api: { host: string; port: number };
  logLevel: LogLevel;
  /**
   * `pretty` (one readable line per entry) only when NODE_ENV=development is set explicitly; JSON
   * lines otherwise, so a process started without NODE_ENV (a container) still writes JSON.
   */
  logFormat: 'json' | 'pretty';
  queuePrefix: string;
  publicApiUrl: string;
  worker: {
    concurrency: number;
    runTimeoutMs: number;
    lockDurationMs: number;
    reconcileIntervalMs: number;
    runMaxAttempts: number;
    /** Port of the worker's Prometheus /metrics listener. */
    metricsPort: number;
  };
  webhooks: {
    allowHosts: string[];
    allowLoopback: boolean;
    timeoutMs: number;
    retryBaseMs: number;
    maxAttempts: number;
    disableAfterFailures: number;
    pollIntervalMs: number;
  };
  /** HMAC key for signed report links (see SCHEDLAB_REPORT_LINK_SECRET). */
  reportLinkSecret: string;
  /** Bearer token of operator endpoints; undefined disables them. */
  operatorToken?: string;
  /** Request body limit and per-tenant rate limit of the api. */
  apiLimits: { bodyBytes: number; requestsPerMinute: number; graphqlBodyBytes: number };
  /** Limits of every parsed document (SCHEDLAB_INPUT_MAX_*): depth, YAML aliases, objects, string bytes. */
  inputLimits: { maxDepth: number; maxYamlAliases: number; maxObjects: number; maxStringBytes: number };
  /**
   * Variables set under their deprecated unprefixed names (`API_PORT` for `SCHEDLAB_API_PORT`, …):
   * each entry is `[old, new]`. The entry points warn once (loadConfigOrExit).
   */
  deprecatedEnv: [string, string][];
  /** GraphQL operation limits: depth, cost (docs/api.md) and aliased fields. */
  graphqlLimits: { maxDepth: number; maxComplexity: number; maxAliases: number };
  /** On-demand full explanations (replays) in the api: at once per process, and time limit. */
  explainReplay: { concurrency: number; timeoutMs: number };
}

/** Raised when the environment is unusable; the message names every offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

// Empty strings come from `FOO=` in shells and compose files; treat them as "not set" so defaults apply.
function withoutEmptyValues(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
}

/**
 * The environment under the schema's names: a deprecated unprefixed name fills in for its
 * SCHEDLAB_ name when that is unset, PORT for SCHEDLAB_API_PORT; `given` maps each schema name
 * to the variable its value came from, so problems name what the user actually set.
 */
function withCurrentNames(env: Record<string, string>): {
  values: Record<string, string>;
  given: Map<string, string>;
  deprecated: [string, string][];
} {
  const values = { ...env };
  const given = new Map<string, string>();
  const deprecated: [string, string][] = [];
  for (const [old, current] of Object.entries(DEPRECATED_ENV_NAMES)) {
    if (env[old] === undefined) continue;
    deprecated.push([old, current]);
    if (env[current] === undefined) {
      values[current] = env[old];
      given.set(current, old);
    }
  }
  if (values.SCHEDLAB_API_PORT === undefined && env[PLATFORM_PORT] !== undefined) {
    values.SCHEDLAB_API_PORT = env[PLATFORM_PORT];
    given.set('SCHEDLAB_API_PORT', PLATFORM_PORT);
  }
  return { values, given, deprecated };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const { values, given, deprecated } = withCurrentNames(withoutEmptyValues(env));
  const parsed = envSchema.safeParse(values);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.') || '(environment)';
        const variable = given.get(name) ?? name;
        const value = env[variable];
        return `${variable}: ${issue.message}${value === undefined ? '' : ` (got ${JSON.stringify(value)})`}`;
      }),
    );
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && e.SCHEDLAB_REPORT_LINK_SECRET === undefined) {
    throw new ConfigError([
      'SCHEDLAB_REPORT_LINK_SECRET: must be set in production (at least 32 characters)',
    ]);
  }
  return {
    nodeEnv: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    api: { host: e.SCHEDLAB_API_HOST, port: e.SCHEDLAB_API_PORT },
    logLevel: e.SCHEDLAB_LOG_LEVEL,
    logFormat: values.NODE_ENV === 'development' ? 'pretty' : 'json',
    queuePrefix: e.SCHEDLAB_QUEUE_PREFIX,
    operatorToken: e.SCHEDLAB_OPERATOR_TOKEN,
    apiLimits: {
      bodyBytes: e.SCHEDLAB_API_BODY_LIMIT_BYTES,
      requestsPerMinute: e.SCHEDLAB_API_RATE_LIMIT_PER_MINUTE,
      graphqlBodyBytes: e.SCHEDLAB_GRAPHQL_BODY_LIMIT_BYTES,
    },
    inputLimits: {
      maxDepth: e.SCHEDLAB_INPUT_MAX_DEPTH,
      maxYamlAliases: e.SCHEDLAB_INPUT_MAX_YAML_ALIASES,
      maxObjects: e.SCHEDLAB_INPUT_MAX_OBJECTS,
      maxStringBytes: e.SCHEDLAB_INPUT_MAX_STRING_BYTES,
    },
    graphqlLimits: {
      maxDepth: e.SCHEDLAB_GRAPHQL_MAX_DEPTH,
      maxComplexity: e.SCHEDLAB_GRAPHQL_MAX_COMPLEXITY,
      maxAliases: e.SCHEDLAB_GRAPHQL_MAX_ALIASES,
    },
    explainReplay: {
      concurrency: e.SCHEDLAB_EXPLAIN_REPLAY_CONCURRENCY,
      timeoutMs: e.SCHEDLAB_EXPLAIN_REPLAY_TIMEOUT_MS,
    },
    publicApiUrl: e.SCHEDLAB_PUBLIC_API_URL.replace(/\/+$/, ''),
    worker: {
      concurrency: e.SCHEDLAB_WORKER_CONCURRENCY,
      runTimeoutMs: e.SCHEDLAB_RUN_TIMEOUT_MS,
      lockDurationMs: e.SCHEDLAB_WORKER_LOCK_DURATION_MS,
      reconcileIntervalMs: e.SCHEDLAB_RECONCILE_INTERVAL_MS,
      runMaxAttempts: e.SCHEDLAB_RUN_MAX_ATTEMPTS,
      metricsPort:
        e.SCHEDLAB_WORKER_METRICS_PORT ?? (e.NODE_ENV === 'test' ? 0 : DEFAULT_WORKER_METRICS_PORT),
    },
    webhooks: {
      allowHosts: e.SCHEDLAB_WEBHOOK_ALLOW_HOSTS,
      allowLoopback: e.SCHEDLAB_WEBHOOK_ALLOW_LOOPBACK,
      timeoutMs: e.SCHEDLAB_WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.SCHEDLAB_WEBHOOK_RETRY_BASE_MS,
      maxAttempts: e.SCHEDLAB_WEBHOOK_MAX_ATTEMPTS,
      disableAfterFailures: e.SCHEDLAB_WEBHOOK_DISABLE_AFTER_FAILURES,
      pollIntervalMs: e.SCHEDLAB_WEBHOOK_POLL_INTERVAL_MS,
    },
    reportLinkSecret: e.SCHEDLAB_REPORT_LINK_SECRET ?? randomBytes(32).toString('hex'),
    deprecatedEnv: deprecated,
  };
}

/** The one start-up warning for variables set under their deprecated names, if any were. */
export function deprecatedEnvWarning(config: AppConfig): string | undefined {
  if (config.deprecatedEnv.length === 0) return undefined;
  const renames = config.deprecatedEnv.map(([old, current]) => `${old} → ${current}`).join(', ');
  return (
    `Deprecated environment variable names (still read; the SCHEDLAB_ name wins when both are set): ` +
    `${renames}. See docs/configuration.md.`
  );
}

/**
 * For process entry points: print the problem and exit instead of a stack trace, and warn once
 * about deprecated variable names.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  let config: AppConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG from sysexits.h
    }
    throw error;
  }
  const warning = deprecatedEnvWarning(config);
  if (warning) process.stderr.write(`warning: ${warning}\n`);
  return config;
}
