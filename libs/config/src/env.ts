import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const urlWithProtocol = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

const port = z.coerce
  .number({ message: 'must be a number' })
  .int('must be an integer')
  .min(0, 'must be between 0 and 65535')
  .max(65535, 'must be between 0 and 65535');

const positiveInt = z.coerce
  .number({ message: 'must be a number' })
  .int('must be an integer')
  .min(1, 'must be at least 1');

/**
 * Every environment variable the api and the worker read, with the defaults that suit a developer
 * machine (docs/configuration.md). The project's own carry the SCHEDLAB_ prefix; the standard ones
 * (NODE_ENV, DATABASE_URL, REDIS_URL) keep their usual names.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: urlWithProtocol(['postgres:', 'postgresql:']).default(
    'postgresql://postgres@localhost:5432/schedlab',
  ),
  REDIS_URL: urlWithProtocol(['redis:', 'rediss:']).default('redis://localhost:6379'),
  SCHEDLAB_API_HOST: z.string().min(1).default('127.0.0.1'),
  SCHEDLAB_API_PORT: port.default(3000),
  SCHEDLAB_LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** Namespace for BullMQ keys, so several deployments (or test runs) can share one Redis. */
  SCHEDLAB_QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'may only contain letters, digits, "_" and "-"')
    .default('schedlab'),
  /** Where clients reach the api; webhook payloads link to runs under it. */
  SCHEDLAB_PUBLIC_API_URL: urlWithProtocol(['http:', 'https:']).default('http://127.0.0.1:3000'),
  /** Simulation jobs one worker process runs at once (each on its own worker thread). */
  SCHEDLAB_WORKER_CONCURRENCY: positiveInt.default(2),
  /** A run still going after this long is failed with a timeout error. */
  SCHEDLAB_RUN_TIMEOUT_MS: positiveInt.default(15 * 60_000),
  /** How long a worker's job lock lasts without renewal; a SIGKILLed worker's runs resume after it. */
  SCHEDLAB_WORKER_LOCK_DURATION_MS: positiveInt.default(30_000),
  /** How often the reconciler re-enqueues queued/running runs that have no live job. */
  SCHEDLAB_RECONCILE_INTERVAL_MS: positiveInt.default(30_000),
  /** Attempts for a run that fails transiently (or whose worker dies) before it is failed. */
  SCHEDLAB_RUN_MAX_ATTEMPTS: positiveInt.default(5),
  /** Full explanations (replays of a run) one api process computes at once, each on its own thread. */
  SCHEDLAB_EXPLAIN_REPLAY_CONCURRENCY: positiveInt.default(2),
  /** A replay still going after this long is stopped and answered 503. */
  SCHEDLAB_EXPLAIN_REPLAY_TIMEOUT_MS: positiveInt.default(60_000),
  /** Hosts (names or IPs, comma-separated) webhooks may target even if they resolve to private ranges. */
  SCHEDLAB_WEBHOOK_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host.length > 0),
    ),
  /** Permit webhook URLs on loopback addresses (tests, receivers on the same host). */
  SCHEDLAB_WEBHOOK_ALLOW_LOOPBACK: z
    .enum(['true', 'false'], { message: 'must be "true" or "false"' })
    .default('false')
    .transform((value) => value === 'true'),
  /** Per-attempt timeout for a webhook POST. */
  SCHEDLAB_WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
  /** First retry delay of a webhook delivery; later ones double (with jitter). */
  SCHEDLAB_WEBHOOK_RETRY_BASE_MS: positiveInt.default(5_000),
  /** Attempts per delivery before it is abandoned. */
  SCHEDLAB_WEBHOOK_MAX_ATTEMPTS: positiveInt.default(8),
  /** Consecutive failed deliveries after which an endpoint is disabled. */
  SCHEDLAB_WEBHOOK_DISABLE_AFTER_FAILURES: positiveInt.default(15),
  /** How often the dispatcher looks for due webhook deliveries. */
  SCHEDLAB_WEBHOOK_POLL_INTERVAL_MS: positiveInt.default(1_000),
  /**
   * Port of the worker's Prometheus /metrics listener (0 picks a free port). Default 9464, or 0
   * under NODE_ENV=test so parallel test workers never compete for one port.
   */
  SCHEDLAB_WORKER_METRICS_PORT: port.optional(),
  /**
   * Key of the HMAC that signs short-lived report links. Required in production (links must stay
   * valid across api instances and restarts); elsewhere a random per-process key is used.
   */
  SCHEDLAB_REPORT_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Bearer token for operator endpoints (/v1/admin/…); when unset those endpoints answer 401. */
  SCHEDLAB_OPERATOR_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * Largest accepted request body in bytes. The default fits a 50,000-pod kubectl dump
   * (~175 MiB indented JSON); an import peaks near 6x its size in api memory (docs/api.md).
   */
  SCHEDLAB_API_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(256 * 1024 * 1024),
  /** Requests per tenant per minute, shared across api instances through Redis. */
  SCHEDLAB_API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Largest GraphQL request body in bytes (a JSON document with the query and its variables). */
  SCHEDLAB_GRAPHQL_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(16 * 1024 * 1024),
  /** Input limits for every parsed document (bodies, snapshots, profiles, scenarios): docs/api.md. */
  SCHEDLAB_INPUT_MAX_DEPTH: z.coerce.number().int().min(8).max(10_000).default(100),
  SCHEDLAB_INPUT_MAX_YAML_ALIASES: z.coerce.number().int().min(0).default(1000),
  SCHEDLAB_INPUT_MAX_OBJECTS: z.coerce.number().int().min(1).default(500_000),
  SCHEDLAB_INPUT_MAX_STRING_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** GraphQL operation limits (docs/api.md, "GraphQL"). */
  SCHEDLAB_GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).default(8),
  SCHEDLAB_GRAPHQL_MAX_COMPLEXITY: z.coerce.number().int().min(10).default(10_000),
  SCHEDLAB_GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(1).default(30),
});

export type Env = z.infer<typeof envSchema>;

export const ENV_PREFIX = 'SCHEDLAB_';

/**
 * The names these variables had before the prefix, still read (docker-compose files and shells
 * set them) with one warning at start; the prefixed name wins when both are set.
 */
export const DEPRECATED_ENV_NAMES: Readonly<Record<string, keyof Env>> = Object.fromEntries(
  Object.keys(envSchema.shape)
    .filter((name) => name.startsWith(ENV_PREFIX))
    .map((name) => [name.slice(ENV_PREFIX.length), name as keyof Env]),
);

/** Platforms (Heroku, Cloud Run, …) say where to listen in PORT; SCHEDLAB_API_PORT wins over it. */
export const PLATFORM_PORT = 'PORT';
export type LogLevel = (typeof LOG_LEVELS)[number];
