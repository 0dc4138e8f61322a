/**
 * A real control plane for specs: upstream etcd and kube-apiserver (pinned in tools/test-cluster),
 * built with the machine's Go, started on free loopback ports with fresh certificates, a static
 * token and AlwaysAllow (or RBAC) authorization, and stopped at the end. No controller-manager, scheduler or
 * kubelet: specs create nodes and bound pods directly.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { closedPort } from './ports';

const execFileAsync = promisify(execFile);
const workspaceRoot = path.resolve(__dirname, '..', '..', '..');
const modulesRoot = path.join(workspaceRoot, 'tools', 'test-cluster');
/** Outside git, kept between runs: a cold kube-apiserver build takes 20 minutes or more. */
const binRoot = path.join(workspaceRoot, 'tmp', 'test-cluster', 'bin');

/** The Go toolchain's version, or undefined when `go` is not on PATH. */
export function goVersion(): string | undefined {
  const run = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

interface Binary {
  name: 'etcd' | 'kube-apiserver';
  /** The Go package to build, from inside its module folder. */
  pkg: string;
}

const BINARIES: readonly Binary[] = [
  { name: 'etcd', pkg: '.' },
  { name: 'kube-apiserver', pkg: 'k8s.io/kubernetes/cmd/kube-apiserver' },
];

/**
 * Where a binary built from its module's current sources with this toolchain lives: the name
 * carries a hash of go.mod, go.sum, the module's Go files and the Go version, so any change to
 * them builds anew and an unchanged module never rebuilds.
 */
export function binaryPath(name: Binary['name'], go: string): string {
  const dir = path.join(modulesRoot, name);
  const hash = createHash('sha256').update(go);
  for (const file of readdirSync(dir).sort()) {
    if (file !== 'go.mod' && file !== 'go.sum' && !file.endsWith('.go')) continue;
    hash.update(`\0${file}\0`).update(readFileSync(path.join(dir, file)));
  }
  return path.join(binRoot, `${name}-${hash.digest('hex').slice(0, 16)}`);
}

/** Builds etcd and kube-apiserver where no current build exists; returns their paths. */
export async function buildControlPlane(
  go: string,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<Record<Binary['name'], string>> {
  mkdirSync(binRoot, { recursive: true });
  const paths = {} as Record<Binary['name'], string>;
  for (const binary of BINARIES) {
    const target = binaryPath(binary.name, go);
    paths[binary.name] = target;
    if (existsSync(target)) continue;
    // Jest runs the CLI and e2e specs in parallel workers: one builds, the others wait for it
    // (a kube-apiserver link alone peaks near 3 GB).
    await whileLocked(path.join(binRoot, '.build-lock'), async () => {
      if (existsSync(target)) return;
      log(`test-cluster: building ${binary.name} with ${go} (a cold kube-apiserver build takes 20+ minutes)`);
      const started = Date.now();
      // Built under another name and renamed: an interrupted build never leaves a half file.
      const partial = `${target}.${process.pid}.partial`;
      await execFileAsync('go', ['build', '-o', partial, binary.pkg], {
        cwd: path.join(modulesRoot, binary.name),
        maxBuffer: 64 * 1024 * 1024,
      });
      renameSync(partial, target);
      log(`test-cluster: built ${binary.name} in ${Math.round((Date.now() - started) / 1000)} s`);
    });
  }
  return paths;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `body` holding a lock folder across processes; a lock whose holder died is taken over. */
async function whileLocked(lock: string, body: () => Promise<void>): Promise<void> {
  const owner = path.join(lock, 'pid');
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(owner, String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(existsSync(owner) ? readFileSync(owner, 'utf8') : 0);
      if (holder > 0 && !isRunning(holder)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  try {
    await body();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function openssl(cwd: string, ...args: string[]): void {
  const run = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr}`);
}

/** A CA, a serving certificate for 127.0.0.1, a client certificate and a service-account key. */
function writeCertificates(dir: string): void {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(
    dir,
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=schedlab-test-ca',
  );
  const signed = (name: string, subject: string, extensions: string) => {
    writeFileSync(path.join(dir, `${name}.ext`), extensions);
    openssl(dir, 'req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    openssl(
      dir,
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    );
  };
  signed(
    'server',
    '/CN=kube-apiserver',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  // A member of system:masters, for kubeconfigs that authenticate with a client certificate.
  signed('client', '/O=system:masters/CN=cert-admin', 'extendedKeyUsage=clientAuth\n');
  openssl(dir, 'genrsa', '-out', 'sa.key', '2048');
}

export interface ObjectJson {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; [field: string]: unknown };
  [field: string]: unknown;
}

export interface TestCluster {
  /** https://127.0.0.1:<port> */
  server: string;
  /** A kubeconfig for the static admin token. */
  kubeconfig: string;
  /** The static admin token (a member of system:masters). */
  token: string;
  /** A token of a user in no group: every request it makes is refused under RBAC. */
  unprivilegedToken: string;
  /** Writes another kubeconfig for the same server with other credentials. */
  writeKubeconfig(name: string, user: Record<string, unknown>): string;
  /** The CA's and the client certificate's PEM files, for kubeconfigs that reference files. */
  files: { ca: string; clientCert: string; clientKey: string };
  /** Calls the API as the admin: JSON in, JSON out; non-2xx throws with the server's message. */
  request<T = unknown>(method: string, apiPath: string, body?: unknown): Promise<T>;
  /** POSTs an object to its collection (namespaced when metadata.namespace is set). */
  create<T extends ObjectJson>(collection: string, object: T): Promise<T>;
  stop(): Promise<void>;
}

function httpsRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  ca: Buffer,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = https.request(url, { method, headers, ca }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function waitFor(what: string, timeoutMs: number, probe: () => Promise<boolean>, logs: () => string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} not ready after ${timeoutMs / 1000} s:\n${logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts etcd and kube-apiserver from `binaries` in a fresh temporary folder and waits until the
 * apiserver's /readyz passes. `stop()` ends both and removes the folder.
 */
export async function startTestCluster(
  binaries: Record<Binary['name'], string>,
  {
    apiserverFlags = [],
    authorization = 'AlwaysAllow',
  }: { apiserverFlags?: string[]; authorization?: 'AlwaysAllow' | 'RBAC' } = {},
): Promise<TestCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'schedlab-test-cluster-'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children.reverse()) await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    return await startIn(
      dir,
      binaries,
      [`--authorization-mode=${authorization}`, ...apiserverFlags],
      children,
      stop,
    );
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startIn(
  dir: string,
  binaries: Record<Binary['name'], string>,
  apiserverFlags: string[],
  children: ChildProcess[],
  stop: () => Promise<void>,
): Promise<TestCluster> {
  writeCertificates(dir);
  const token = randomBytes(24).toString('hex');
  const unprivilegedToken = randomBytes(24).toString('hex');
  writeFileSync(
    path.join(dir, 'tokens.csv'),
    `${token},admin,admin-uid,"system:masters"\n${unprivilegedToken},nobody,nobody-uid\n`,
  );
  const [etcdPort, peerPort, apiPort] = [await closedPort(), await closedPort(), await closedPort()];

  const etcdLog = path.join(dir, 'etcd.log');
  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  children.push(
    spawnLogged(binaries.etcd, etcdLog, [
      `--data-dir=${path.join(dir, 'etcd-data')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=default=${peerUrl}`,
      '--unsafe-no-fsync',
      '--log-level=warn',
    ]),
  );
  await waitFor(
    'etcd',
    60_000,
    async () => (await fetch(`${etcdUrl}/health`)).ok,
    () => tail(etcdLog),
  );

  const apiLog = path.join(dir, 'kube-apiserver.log');
  const file = (name: string) => path.join(dir, name);
  children.push(
    spawnLogged(binaries['kube-apiserver'], apiLog, [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      `--tls-cert-file=${file('server.crt')}`,
      `--tls-private-key-file=${file('server.key')}`,
      `--client-ca-file=${file('ca.crt')}`,
      `--token-auth-file=${file('tokens.csv')}`,
      '--service-account-issuer=https://kubernetes.default.svc',
      `--service-account-key-file=${file('sa.key')}`,
      `--service-account-signing-key-file=${file('sa.key')}`,
      '--service-cluster-ip-range=10.96.0.0/24',
      '--endpoint-reconciler-type=none',
      // Without a controller-manager no ServiceAccount ever exists, and without a kubelet no
      // node loses the not-ready taint these two plugins add.
      '--disable-admission-plugins=ServiceAccount,TaintNodesByCondition',
      ...apiserverFlags,
    ]),
  );
  const server = `https://127.0.0.1:${apiPort}`;
  const ca = readFileSync(file('ca.crt'));
  const admin = { authorization: `Bearer ${token}`, accept: 'application/json' };
  await waitFor(
    'kube-apiserver',
    120_000,
    async () => (await httpsRequest(`${server}/readyz`, 'GET', admin, ca)).status === 200,
    () => tail(apiLog),
  );

  const writeKubeconfig = (name: string, user: Record<string, unknown>): string => {
    const target = path.join(dir, `${name}.kubeconfig`);
    writeFileSync(
      target,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'test', cluster: { server, 'certificate-authority-data': ca.toString('base64') } },
        ],
        users: [{ name, user }],
        contexts: [{ name: `test-${name}`, context: { cluster: 'test', user: name } }],
        'current-context': `test-${name}`,
      }),
    );
    return target;
  };

  const request = async <T>(method: string, apiPath: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { ...admin };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const answer = await httpsRequest(
      `${server}${apiPath}`,
      method,
      headers,
      ca,
      body === undefined ? undefined : JSON.stringify(body),
    );
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(`${method} ${apiPath}: HTTP ${answer.status}: ${answer.text.slice(0, 500)}`);
    return JSON.parse(answer.text) as T;
  };

  return {
    server,
    kubeconfig: writeKubeconfig('admin', { token }),
    token,
    unprivilegedToken,
    writeKubeconfig,
    files: { ca: file('ca.crt'), clientCert: file('client.crt'), clientKey: file('client.key') },
    request,
    create: <T extends ObjectJson>(collection: string, object: T) => {
      const ns = object.metadata.namespace;
      const prefix = collection.startsWith('/') ? collection : `/api/v1/${collection}`;
      const at = ns ? prefix.replace(/\/([^/]+)$/, `/namespaces/${ns}/$1`) : prefix;
      return request<T>('POST', at, object);
    },
    stop,
  };
}

function spawnLogged(binary: string, logFile: string, args: string[]): ChildProcess {
  const fd = openSync(logFile, 'a');
  try {
    return spawn(binary, args, { stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd); // the child holds its own copy
  }
}
