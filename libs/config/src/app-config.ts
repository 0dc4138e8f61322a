import { randomBytes } from 'node:crypto';
import { envSchema, type LogLevel } from './env';

/** Prometheus' conventional exporter port range starts at 9100; 9464 is the OpenTelemetry exporter's. */
const DEFAULT_WORKER_METRICS_PORT = 9464;

export interface AppConfig {
  nodeEnv: 'development' | 'test' | 'production';
  databaseUrl: string;
  redisUrl: string;
  api: { host: string; port: number };
  logLevel: LogLevel;
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
  /** HMAC key for signed report links (see REPORT_LINK_SECRET). */
  reportLinkSecret: string;
  /** Bearer token of operator endpoints; undefined disables them. */
  operatorToken?: string;
  /** Request body limit and per-tenant rate limit of the api. */
  apiLimits: { bodyBytes: number; requestsPerMinute: number; graphqlBodyBytes: number };
  /** Limits of every parsed document (INPUT_MAX_*): depth, YAML aliases, objects, string bytes. */
  inputLimits: { maxDepth: number; maxYamlAliases: number; maxObjects: number; maxStringBytes: number };
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(withoutEmptyValues(env));
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const variable = issue.path.join('.') || '(environment)';
        const given = env[variable];
        return `${variable}: ${issue.message}${given === undefined ? '' : ` (got ${JSON.stringify(given)})`}`;
      }),
    );
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && e.REPORT_LINK_SECRET === undefined) {
    throw new ConfigError(['REPORT_LINK_SECRET: must be set in production (at least 32 characters)']);
  }
  return {
    nodeEnv: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    api: { host: e.API_HOST, port: e.API_PORT },
    logLevel: e.LOG_LEVEL,
    queuePrefix: e.QUEUE_PREFIX,
    operatorToken: e.OPERATOR_TOKEN,
    apiLimits: {
      bodyBytes: e.API_BODY_LIMIT_BYTES,
      requestsPerMinute: e.API_RATE_LIMIT_PER_MINUTE,
      graphqlBodyBytes: e.GRAPHQL_BODY_LIMIT_BYTES,
    },
    inputLimits: {
      maxDepth: e.INPUT_MAX_DEPTH,
      maxYamlAliases: e.INPUT_MAX_YAML_ALIASES,
      maxObjects: e.INPUT_MAX_OBJECTS,
      maxStringBytes: e.INPUT_MAX_STRING_BYTES,
    },
    graphqlLimits: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxComplexity: e.GRAPHQL_MAX_COMPLEXITY,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
    },
    explainReplay: { concurrency: e.EXPLAIN_REPLAY_CONCURRENCY, timeoutMs: e.EXPLAIN_REPLAY_TIMEOUT_MS },
    publicApiUrl: e.PUBLIC_API_URL.replace(/\/+$/, ''),
    worker: {
      concurrency: e.WORKER_CONCURRENCY,
      runTimeoutMs: e.RUN_TIMEOUT_MS,
      lockDurationMs: e.WORKER_LOCK_DURATION_MS,
      reconcileIntervalMs: e.RECONCILE_INTERVAL_MS,
      runMaxAttempts: e.RUN_MAX_ATTEMPTS,
      metricsPort: e.WORKER_METRICS_PORT ?? (e.NODE_ENV === 'test' ? 0 : DEFAULT_WORKER_METRICS_PORT),
    },
    webhooks: {
      allowHosts: e.WEBHOOK_ALLOW_HOSTS,
      allowLoopback: e.WEBHOOK_ALLOW_LOOPBACK,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      disableAfterFailures: e.WEBHOOK_DISABLE_AFTER_FAILURES,
      pollIntervalMs: e.WEBHOOK_POLL_INTERVAL_MS,
    },
    reportLinkSecret: e.REPORT_LINK_SECRET ?? randomBytes(32).toString('hex'),
  };
}

/** For process entry points: print the problem and exit instead of a stack trace. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG from sysexits.h
    }
    throw error;
  }
}
