import { type AppConfig, loadConfig } from '@schedlab/config';
import { uniqueName } from './test-database';

/**
 * Config for an app under test: the environment's servers, a private queue prefix so parallel
 * runs never share BullMQ keys, an ephemeral port, and quiet logs.
 */
export function testConfig(overrides: NodeJS.ProcessEnv = {}): AppConfig {
  return loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    API_PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    QUEUE_PREFIX: uniqueName('test'),
    ...overrides,
  });
}
