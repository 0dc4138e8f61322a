import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { UsageError } from '../input/errors';

/**
 * Reading a kubeconfig ourselves: @kubernetes/client-node 2.x loads undici 8, which needs Node 22's
 * zlib and fails on import under Node 20. This covers what kubectl users have in their files:
 * bearer tokens (inline or a file), client certificates, basic auth, a CA, tls-server-name and
 * exec credential plugins.
 */

/** A failure reaching or reading the cluster: one line, never a credential. Exit code 1. */
export class ClusterAccessError extends UsageError {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterAccessError';
  }
}

/** How to reach and authenticate to one cluster, resolved from a kubeconfig context. */
export interface ClusterConnection {
  kubeconfig: string;
  context: string;
  /** e.g. https://10.0.0.1:6443 (no trailing slash). */
  server: string;
  /** The context's default namespace, if it sets one. */
  namespace?: string;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  /** The Authorization header value, if the user authenticates with a token or a password. */
  authorization?: string;
}

interface NamedEntry<T> {
  name?: string;
  [field: string]: unknown;
  value?: T;
}

interface ClusterEntry {
  server?: string;
  'certificate-authority'?: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'tls-server-name'?: string;
}

interface ExecConfig {
  apiVersion?: string;
  command?: string;
  args?: string[];
  env?: { name: string; value: string }[] | null;
  installHint?: string;
  provideClusterInfo?: boolean;
  interactiveMode?: string;
}

interface UserEntry {
  token?: string;
  tokenFile?: string;
  'client-certificate'?: string;
  'client-certificate-data'?: string;
  'client-key'?: string;
  'client-key-data'?: string;
  username?: string;
  password?: string;
  exec?: ExecConfig;
  'auth-provider'?: { name?: string };
}

interface ContextEntry {
  cluster?: string;
  user?: string;
  namespace?: string;
}

interface KubeconfigFile {
  'current-context'?: string;
  clusters?: NamedEntry<ClusterEntry>[];
  users?: NamedEntry<UserEntry>[];
  contexts?: NamedEntry<ContextEntry>[];
}

/** The kubeconfig kubectl would read: $KUBECONFIG's first file, else ~/.kube/config. */
export function defaultKubeconfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const first = (env.KUBECONFIG ?? '').split(path.delimiter).find((p) => p !== '');
  return first ?? path.join(homedir(), '.kube', 'config');
}

function readKubeconfig(file: string): KubeconfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ClusterAccessError(
      `kubeconfig ${file}: cannot read: ${code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable')}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    // The YAML library's message quotes the offending line, which may hold a credential.
    const where = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    throw new ClusterAccessError(
      `kubeconfig ${file}: invalid YAML${where ? ` at line ${where.line}, column ${where.col}` : ''}`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ClusterAccessError(`kubeconfig ${file}: not a kubeconfig (expected a mapping)`);
  return parsed as KubeconfigFile;
}

function findNamed<T>(entries: NamedEntry<T>[] | undefined, name: string, field: string): T | undefined {
  const entry = (entries ?? []).find((e) => e?.name === name);
  return entry ? ((entry[field] as T | undefined) ?? ({} as T)) : undefined;
}

/** Reads a file named in the kubeconfig, relative to the kubeconfig's own folder. */
function readReferenced(kubeconfig: string, what: string, file: string): Buffer {
  const resolved = path.resolve(path.dirname(kubeconfig), file);
  try {
    return readFileSync(resolved);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ClusterAccessError(
      `kubeconfig ${kubeconfig}: ${what} ${resolved}: cannot read (${code ?? 'unreadable'})`,
    );
  }
}

function decodeData(kubeconfig: string, what: string, data: string): Buffer {
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length === 0) throw new ClusterAccessError(`kubeconfig ${kubeconfig}: ${what} is not base64`);
  return bytes;
}

/** What an exec credential plugin prints on stdout (client.authentication.k8s.io v1 or v1beta1). */
interface ExecCredential {
  status?: { token?: string; clientCertificateData?: string; clientKeyData?: string };
}

function runExecPlugin(
  where: string,
  exec: ExecConfig,
  cluster: { server: string; ca?: Buffer; insecure: boolean; tlsServerName?: string },
): Promise<ExecCredential['status']> {
  const command = exec.command;
  if (!command) return Promise.reject(new ClusterAccessError(`${where}: exec has no command`));
  const apiVersion = exec.apiVersion ?? 'client.authentication.k8s.io/v1';
  // Interactive plugins (a browser login, a prompt) cannot run under a snapshot's pipes.
  const info = {
    apiVersion,
    kind: 'ExecCredential',
    spec: {
      interactive: false,
      ...(exec.provideClusterInfo
        ? {
            cluster: {
              server: cluster.server,
              'certificate-authority-data': cluster.ca?.toString('base64'),
              'insecure-skip-tls-verify': cluster.insecure,
              'tls-server-name': cluster.tlsServerName,
            },
          }
        : {}),
    },
  };
  const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify(info) };
  for (const variable of exec.env ?? []) env[variable.name] = variable.value;
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      exec.args ?? [],
      { env, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          const reason =
            code === 'ENOENT'
              ? `not found${exec.installHint ? ` (${exec.installHint.trim().split('\n')[0]})` : ''}`
              : `exited with ${typeof code === 'number' ? `code ${code}` : (error.signal ?? code ?? 'an error')}`;
          reject(new ClusterAccessError(`${where}: exec plugin ${command} ${reason}`));
          return;
        }
        let credential: ExecCredential;
        try {
          credential = JSON.parse(stdout) as ExecCredential;
        } catch {
          reject(new ClusterAccessError(`${where}: exec plugin ${command} printed no ExecCredential JSON`));
          return;
        }
        const status = credential.status;
        if (!status?.token && !(status?.clientCertificateData && status.clientKeyData)) {
          reject(
            new ClusterAccessError(
              `${where}: exec plugin ${command} returned neither a token nor a certificate`,
            ),
          );
          return;
        }
        resolve(status);
      },
    );
    // The plugin's own messages (e.g. "token expired, run login") are for the user, as with kubectl.
    child.stderr?.on('data', (chunk: string) => process.stderr.write(chunk));
  });
}

/**
 * Resolves a kubeconfig context (the current one unless named) to a server, its TLS material and
 * credentials, running the user's exec plugin if it has one. Errors name the file and context.
 */
export async function loadKubeconfig(file: string, contextName?: string): Promise<ClusterConnection> {
  const config = readKubeconfig(file);
  const context = contextName ?? config['current-context'];
  if (!context)
    throw new ClusterAccessError(`kubeconfig ${file}: no current-context; name one with --context`);
  const where = `kubeconfig ${file}, context ${context}`;
  const ctx = findNamed<ContextEntry>(config.contexts, context, 'context');
  if (!ctx) throw new ClusterAccessError(`kubeconfig ${file}: no context named ${context}`);
  if (!ctx.cluster) throw new ClusterAccessError(`${where}: the context names no cluster`);
  const cluster = findNamed<ClusterEntry>(config.clusters, ctx.cluster, 'cluster');
  if (!cluster) throw new ClusterAccessError(`${where}: no cluster named ${ctx.cluster}`);
  if (!cluster.server) throw new ClusterAccessError(`${where}: cluster ${ctx.cluster} has no server`);
  const user: UserEntry = ctx.user ? (findNamed<UserEntry>(config.users, ctx.user, 'user') ?? {}) : {};
  if (ctx.user && !(config.users ?? []).some((u) => u?.name === ctx.user))
    throw new ClusterAccessError(`${where}: no user named ${ctx.user}`);

  const connection: ClusterConnection = {
    kubeconfig: file,
    context,
    server: cluster.server.replace(/\/+$/, ''),
    namespace: ctx.namespace || undefined,
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
    tlsServerName: cluster['tls-server-name'] || undefined,
  };
  if (cluster['certificate-authority-data'])
    connection.ca = decodeData(file, 'certificate-authority-data', cluster['certificate-authority-data']);
  else if (cluster['certificate-authority'])
    connection.ca = readReferenced(file, 'certificate-authority', cluster['certificate-authority']);

  if (user['client-certificate-data'])
    connection.cert = decodeData(file, 'client-certificate-data', user['client-certificate-data']);
  else if (user['client-certificate'])
    connection.cert = readReferenced(file, 'client-certificate', user['client-certificate']);
  if (user['client-key-data']) connection.key = decodeData(file, 'client-key-data', user['client-key-data']);
  else if (user['client-key']) connection.key = readReferenced(file, 'client-key', user['client-key']);

  if (user.token) connection.authorization = `Bearer ${user.token}`;
  else if (user.tokenFile)
    connection.authorization = `Bearer ${readReferenced(file, 'tokenFile', user.tokenFile).toString('utf8').trim()}`;
  else if (user.username !== undefined && user.password !== undefined)
    connection.authorization = `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;

  if (user['auth-provider'])
    throw new ClusterAccessError(
      `${where}: user ${ctx.user} uses auth-provider ${user['auth-provider'].name ?? ''}, which schedlab does not support; use an exec credential plugin`,
    );
  if (user.exec) {
    const status = await runExecPlugin(`${where}, user ${ctx.user}`, user.exec, {
      server: connection.server,
      ca: connection.ca,
      insecure: connection.insecureSkipTlsVerify,
      tlsServerName: connection.tlsServerName,
    });
    if (status?.token) connection.authorization = `Bearer ${status.token}`;
    if (status?.clientCertificateData && status.clientKeyData) {
      connection.cert = Buffer.from(status.clientCertificateData);
      connection.key = Buffer.from(status.clientKeyData);
    }
  }
  if ((connection.cert === undefined) !== (connection.key === undefined))
    throw new ClusterAccessError(
      `${where}: user ${ctx.user} has a client certificate without its key, or a key without its certificate`,
    );
  return connection;
}
