import { redisOptionsFromUrl } from './redis-connection';

describe('redisOptionsFromUrl', () => {
  it('uses the Redis defaults for a bare URL', () => {
    expect(redisOptionsFromUrl('redis://localhost')).toEqual({ host: 'localhost', port: 6379, db: 0 });
  });

  it('carries credentials, database index and TLS', () => {
    expect(redisOptionsFromUrl('rediss://user:p%40ss@cache.internal:6380/3')).toEqual({
      host: 'cache.internal',
      port: 6380,
      db: 3,
      username: 'user',
      password: 'p@ss',
      tls: {},
    });
  });

  it('unwraps IPv6 literals', () => {
    expect(redisOptionsFromUrl('redis://[::1]:6379').host).toBe('::1');
  });

  it('rejects a database index that is not a number', () => {
    expect(() => redisOptionsFromUrl('redis://localhost/cache')).toThrow(/database index/);
  });
});
