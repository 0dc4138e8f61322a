import { type Resolver, resolveWebhookTarget, UnsafeWebhookUrlError } from './ssrf-guard';

const strict = { allowHosts: [], allowLoopback: false };
const resolvesTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);

describe('webhook SSRF guard', () => {
  it.each([
    ['http://10.0.0.1/', 'private'],
    ['http://172.16.4.2/hook', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://127.0.0.1:8080/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://169.254.169.254/latest/meta-data', 'linkLocal'],
    ['http://100.64.0.7/', 'carrierGradeNat'],
    ['http://[fd00::1]/', 'uniqueLocal'],
    ['http://[fe80::1]/', 'linkLocal'],
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://0.0.0.0/', 'unspecified'],
  ])('refuses %s (%s)', async (url, range) => {
    await expect(resolveWebhookTarget(url, strict)).rejects.toThrow(new RegExp(`a ${range} address`));
  });

  it('refuses a host name if any address it resolves to is private', async () => {
    await expect(
      resolveWebhookTarget('https://hooks.example.com/x', strict, resolvesTo('93.184.216.34', '10.1.2.3')),
    ).rejects.toThrow(/host hooks.example.com resolves to 10.1.2.3, a private address/);
  });

  it('accepts a public address and returns it as the one to connect to', async () => {
    const { target, url } = await resolveWebhookTarget(
      'https://hooks.example.com/x',
      strict,
      resolvesTo('93.184.216.34'),
    );
    expect(target).toEqual({ address: '93.184.216.34', family: 4 });
    expect(url.pathname).toBe('/x');
  });

  it('permits loopback only when configured, and nothing else private', async () => {
    const loopback = { allowHosts: [], allowLoopback: true };
    await expect(resolveWebhookTarget('http://127.0.0.1:9/', loopback)).resolves.toMatchObject({
      target: { address: '127.0.0.1' },
    });
    await expect(resolveWebhookTarget('http://10.0.0.1/', loopback)).rejects.toBeInstanceOf(
      UnsafeWebhookUrlError,
    );
  });

  it('permits an allow-listed on-prem host whatever it resolves to', async () => {
    const policy = { allowHosts: ['hooks.corp.internal'], allowLoopback: false };
    await expect(
      resolveWebhookTarget('http://hooks.corp.internal/', policy, resolvesTo('10.20.30.40')),
    ).resolves.toMatchObject({ target: { address: '10.20.30.40' } });
  });

  it('rejects other schemes and embedded credentials', async () => {
    await expect(resolveWebhookTarget('ftp://example.com/', strict)).rejects.toThrow(
      /scheme must be http or https/,
    );
    await expect(resolveWebhookTarget('https://u:p@example.com/', strict)).rejects.toThrow(/credentials/);
    await expect(resolveWebhookTarget('not a url', strict)).rejects.toThrow(/not a valid absolute URL/);
  });
});
