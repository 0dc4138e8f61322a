import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { defaultKubeconfigPath, loadKubeconfig } from './kubeconfig';
import { snapshotsEndpoint } from './upload';

function kubeconfigIn(dir: string, user: Record<string, unknown>, cluster: Record<string, unknown> = {}) {
  const file = path.join(dir, 'config');
  writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: 'https://k8s.example:6443/', ...cluster } }],
      users: [{ name: 'u', user }],
      contexts: [
        { name: 'dev', context: { cluster: 'c', user: 'u', namespace: 'apps' } },
        { name: 'no-user', context: { cluster: 'c', user: 'ghost' } },
      ],
      'current-context': 'dev',
    }),
  );
  return file;
}

const freshDir = () => mkdtempSync(path.join(tmpdir(), 'schedlab-kubeconfig-'));

describe('loadKubeconfig', () => {
  it('resolves the current context: server, namespace, inline CA and client certificate', async () => {
    const dir = freshDir();
    const file = kubeconfigIn(
      dir,
      {
        'client-certificate-data': Buffer.from('CERT').toString('base64'),
        'client-key-data': Buffer.from('KEY').toString('base64'),
      },
      {
        'certificate-authority-data': Buffer.from('CA').toString('base64'),
        'tls-server-name': 'api.internal',
      },
    );
    const connection = await loadKubeconfig(file);
    expect(connection).toMatchObject({
      context: 'dev',
      server: 'https://k8s.example:6443',
      namespace: 'apps',
      insecureSkipTlsVerify: false,
      tlsServerName: 'api.internal',
    });
    expect(connection.ca?.toString()).toBe('CA');
    expect(connection.cert?.toString()).toBe('CERT');
    expect(connection.key?.toString()).toBe('KEY');
    expect(connection.authorization).toBeUndefined();
  });

  it('reads files relative to the kubeconfig, wherever the command runs', async () => {
    const dir = freshDir();
    mkdirSync(path.join(dir, 'pki'));
    writeFileSync(path.join(dir, 'pki', 'ca.crt'), 'CA-FILE');
    writeFileSync(path.join(dir, 'token'), 'tok-from-file\n');
    const file = kubeconfigIn(dir, { tokenFile: 'token' }, { 'certificate-authority': 'pki/ca.crt' });
    const connection = await loadKubeconfig(file);
    expect(connection.ca?.toString()).toBe('CA-FILE');
    expect(connection.authorization).toBe('Bearer tok-from-file');
  });

  it('sends basic auth for a username and password', async () => {
    const connection = await loadKubeconfig(kubeconfigIn(freshDir(), { username: 'ann', password: 'pw' }));
    expect(connection.authorization).toBe(`Basic ${Buffer.from('ann:pw').toString('base64')}`);
  });

  it('names the file and context in one-line errors', async () => {
    const dir = freshDir();
    const file = kubeconfigIn(dir, { token: 't' });
    await expect(loadKubeconfig(file, 'prod')).rejects.toThrow(`kubeconfig ${file}: no context named prod`);
    await expect(loadKubeconfig(file, 'no-user')).rejects.toThrow(
      `kubeconfig ${file}, context no-user: no user named ghost`,
    );
    await expect(loadKubeconfig(path.join(dir, 'missing'))).rejects.toThrow(
      `kubeconfig ${path.join(dir, 'missing')}: cannot read: no such file`,
    );
    const certOnly = kubeconfigIn(freshDir(), {
      'client-certificate-data': Buffer.from('C').toString('base64'),
    });
    await expect(loadKubeconfig(certOnly)).rejects.toThrow(/client certificate without its key/);
  });

  it('never quotes the kubeconfig in a YAML error: the broken line may hold a token', async () => {
    const file = path.join(freshDir(), 'config');
    writeFileSync(file, 'users:\n- name: u\n  user: {token: "secret-token-value\n');
    const error = await loadKubeconfig(file).catch((e: Error) => e);
    expect((error as Error).message).toMatch(new RegExp(`^kubeconfig ${file}: invalid YAML`));
    expect((error as Error).message).not.toContain('secret-token-value');
  });

  it('points users of the removed auth-provider plugins to exec', async () => {
    const file = kubeconfigIn(freshDir(), { 'auth-provider': { name: 'gcp' } });
    await expect(loadKubeconfig(file)).rejects.toThrow(
      /auth-provider gcp, which schedlab does not support; use an exec/,
    );
  });

  it('reports an exec plugin that is not installed with its install hint', async () => {
    const file = kubeconfigIn(freshDir(), {
      exec: {
        apiVersion: 'client.authentication.k8s.io/v1',
        command: 'schedlab-no-such-credential-plugin',
        installHint: 'install it from your cloud vendor',
      },
    });
    await expect(loadKubeconfig(file)).rejects.toThrow(
      `kubeconfig ${file}, context dev, user u: exec plugin schedlab-no-such-credential-plugin not found (install it from your cloud vendor)`,
    );
  });
});

describe('defaultKubeconfigPath', () => {
  it("is $KUBECONFIG's first file, else ~/.kube/config, as with kubectl", () => {
    expect(defaultKubeconfigPath({ KUBECONFIG: `/a/config${path.delimiter}/b/config` })).toBe('/a/config');
    expect(defaultKubeconfigPath({})).toBe(path.join(homedir(), '.kube', 'config'));
  });
});

describe('snapshotsEndpoint', () => {
  it('accepts the service base URL, its /v1 or the endpoint itself', () => {
    for (const given of [
      'http://svc:3000',
      'http://svc:3000/',
      'http://svc:3000/v1',
      'http://svc:3000/v1/snapshots',
    ])
      expect(snapshotsEndpoint(given).toString()).toBe('http://svc:3000/v1/snapshots');
    expect(snapshotsEndpoint('https://example.com/schedlab').toString()).toBe(
      'https://example.com/schedlab/v1/snapshots',
    );
    expect(() => snapshotsEndpoint('localhost')).toThrow('--upload localhost: not a URL');
  });
});
