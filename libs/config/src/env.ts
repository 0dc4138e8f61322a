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

/** Every environment variable Schedlab reads, with the defaults that suit a developer machine. */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: urlWithProtocol(['postgres:', 'postgresql:']).default(
    'postgresql://postgres@localhost:5432/schedlab',
  ),
  REDIS_URL: urlWithProtocol(['redis:', 'rediss:']).default('redis://localhost:6379'),
  API_HOST: z.string().min(1).default('127.0.0.1'),
  API_PORT: port.default(3000),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** Namespace for BullMQ keys, so several deployments (or test runs) can share one Redis. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'may only contain letters, digits, "_" and "-"')
    .default('schedlab'),
});

export type Env = z.infer<typeof envSchema>;
export type LogLevel = (typeof LOG_LEVELS)[number];
