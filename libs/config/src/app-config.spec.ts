import { ConfigError, deprecatedEnvWarning, loadConfig } from './app-config';
import { DEPRECATED_ENV_NAMES } from './env';

describe('loadConfig', () => {
  it('applies defaults suited to a developer machine when nothing is set', () => {
    const config = loadConfig({});
    expect(config.databaseUrl).toBe('postgresql://postgres@localhost:5432/schedlab');
    expect(config.redisUrl).toBe('redis://localhost:6379');
    expect(config.api).toEqual({ host: '127.0.0.1', port: 3000 });
    expect(config.queuePrefix).toBe('schedlab');
  });

  it('reads and coerces values from the environment', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/x',
      REDIS_URL: 'rediss://cache:6380/2',
      API_PORT: '8080',
      LOG_LEVEL: 'debug',
    });
    expect(config.databaseUrl).toBe('postgres://u:p@db:5432/x');
    expect(config.redisUrl).toBe('rediss://cache:6380/2');
    expect(config.api.port).toBe(8080);
    expect(config.logLevel).toBe('debug');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ API_PORT: '' }).api.port).toBe(3000);
  });

  it('names the malformed variable and the value it was given', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://localhost/x' })).toThrow(
      /DATABASE_URL: must be a URL starting with postgres:\/\/ or postgresql:\/\/ \(got "mysql:\/\/localhost\/x"\)/,
    );
  });

  it('reports every problem at once', () => {
    try {
      loadConfig({ API_PORT: '70000', REDIS_URL: 'not a url', LOG_LEVEL: 'loud' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const variables = (error as ConfigError).problems.map((p) => p.split(':')[0]);
      expect(variables.sort()).toEqual(['API_PORT', 'LOG_LEVEL', 'REDIS_URL']);
    }
  });

  it('rejects a non-numeric port', () => {
    expect(() => loadConfig({ API_PORT: 'http' })).toThrow(/API_PORT: /);
  });

  it('reads worker and webhook settings, with the loopback switch off by default', () => {
    const defaults = loadConfig({});
    expect(defaults.worker.concurrency).toBe(2);
    expect(defaults.webhooks).toMatchObject({ allowHosts: [], allowLoopback: false });
    const config = loadConfig({
      WORKER_CONCURRENCY: '4',
      WEBHOOK_ALLOW_HOSTS: ' hooks.internal , 10.1.2.3,',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    });
    expect(config.worker.concurrency).toBe(4);
    expect(config.webhooks.allowHosts).toEqual(['hooks.internal', '10.1.2.3']);
    expect(config.webhooks.allowLoopback).toBe(true);
  });

  it('rejects a zero concurrency and a loopback switch that is not a boolean', () => {
    expect(() => loadConfig({ WORKER_CONCURRENCY: '0' })).toThrow(/WORKER_CONCURRENCY: must be at least 1/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'yes' })).toThrow(/WEBHOOK_ALLOW_LOOPBACK: /);
  });

  it('reads the worker metrics port and the report link secret, requiring the secret in production', () => {
    const secret = 'x'.repeat(32);
    const config = loadConfig({ WORKER_METRICS_PORT: '9100', REPORT_LINK_SECRET: secret });
    expect(config.worker.metricsPort).toBe(9100);
    expect(loadConfig({}).worker.metricsPort).toBe(9464);
    expect(loadConfig({ NODE_ENV: 'test' }).worker.metricsPort).toBe(0);
    expect(config.reportLinkSecret).toBe(secret);
    expect(loadConfig({}).reportLinkSecret).toHaveLength(64);
    expect(() => loadConfig({ REPORT_LINK_SECRET: 'short' })).toThrow(
      /REPORT_LINK_SECRET: must be at least 32 characters/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /REPORT_LINK_SECRET: must be set in production/,
    );
  });

  describe('SCHEDLAB_ names and their deprecated unprefixed aliases', () => {
    it('reads the prefixed names, with no warning', () => {
      const config = loadConfig({
        SCHEDLAB_API_PORT: '8081',
        SCHEDLAB_LOG_LEVEL: 'warn',
        SCHEDLAB_WEBHOOK_ALLOW_LOOPBACK: 'true',
        SCHEDLAB_OPERATOR_TOKEN: 'o'.repeat(16),
      });
      expect(config.api.port).toBe(8081);
      expect(config.logLevel).toBe('warn');
      expect(config.webhooks.allowLoopback).toBe(true);
      expect(config.operatorToken).toBe('o'.repeat(16));
      expect(config.deprecatedEnv).toEqual([]);
      expect(deprecatedEnvWarning(config)).toBeUndefined();
    });

    it('still reads an old name, and lists it for the one start-up warning', () => {
      const config = loadConfig({ API_HOST: '0.0.0.0', QUEUE_PREFIX: 'old' });
      expect(config.api.host).toBe('0.0.0.0');
      expect(config.queuePrefix).toBe('old');
      expect(config.deprecatedEnv).toEqual([
        ['API_HOST', 'SCHEDLAB_API_HOST'],
        ['QUEUE_PREFIX', 'SCHEDLAB_QUEUE_PREFIX'],
      ]);
      expect(deprecatedEnvWarning(config)).toBe(
        'Deprecated environment variable names (still read; the SCHEDLAB_ name wins when both are set): ' +
          'API_HOST → SCHEDLAB_API_HOST, QUEUE_PREFIX → SCHEDLAB_QUEUE_PREFIX. See docs/configuration.md.',
      );
    });

    it('prefers the prefixed name when both are set', () => {
      const config = loadConfig({ SCHEDLAB_WORKER_CONCURRENCY: '3', WORKER_CONCURRENCY: '9' });
      expect(config.worker.concurrency).toBe(3);
      expect(config.deprecatedEnv).toEqual([['WORKER_CONCURRENCY', 'SCHEDLAB_WORKER_CONCURRENCY']]);
    });

    it('names the variable the user set in a problem: the old name, or the new one', () => {
      expect(() => loadConfig({ RUN_TIMEOUT_MS: 'soon' })).toThrow(
        /^Invalid configuration:\n {2}- RUN_TIMEOUT_MS: /,
      );
      expect(() => loadConfig({ SCHEDLAB_RUN_TIMEOUT_MS: 'soon' })).toThrow(/- SCHEDLAB_RUN_TIMEOUT_MS: /);
      expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
        /SCHEDLAB_REPORT_LINK_SECRET: must be set/,
      );
    });

    it('takes the platform PORT when no api port is set, and never over SCHEDLAB_API_PORT', () => {
      expect(loadConfig({ PORT: '8080' }).api.port).toBe(8080);
      expect(loadConfig({ PORT: '8080', SCHEDLAB_API_PORT: '9090' }).api.port).toBe(9090);
      expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/- PORT: must be a number/);
    });

    it('has an old name for every prefixed variable and none for the standard ones', () => {
      expect(DEPRECATED_ENV_NAMES.API_BODY_LIMIT_BYTES).toBe('SCHEDLAB_API_BODY_LIMIT_BYTES');
      expect(Object.keys(DEPRECATED_ENV_NAMES)).not.toContain('DATABASE_URL');
      expect(Object.keys(DEPRECATED_ENV_NAMES)).not.toContain('NODE_ENV');
      expect(Object.keys(DEPRECATED_ENV_NAMES)).toHaveLength(32);
    });
  });

  it('writes pretty logs only when NODE_ENV=development is set, JSON when it is unset or anything else', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).logFormat).toBe('pretty');
    expect(loadConfig({}).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'test' }).logFormat).toBe('json');
    expect(
      loadConfig({ NODE_ENV: 'production', SCHEDLAB_REPORT_LINK_SECRET: 'k'.repeat(32) }).logFormat,
    ).toBe('json');
  });
});
