import http from 'node:http';
import https from 'node:https';
import { ClusterAccessError, type ClusterConnection } from './kubeconfig';

/** An answer of the API server other than 2xx. */
export class KubeApiStatusError extends ClusterAccessError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'KubeApiStatusError';
  }
}

/** What the API server says in a failed answer's Status body (its reason and message). */
function statusReason(body: string): string | undefined {
  try {
    const status = JSON.parse(body) as { message?: string; reason?: string };
    return status.message ?? status.reason;
  } catch {
    return body.trim().split('\n')[0]?.slice(0, 200) || undefined;
  }
}

const CONNECTION_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ETIMEDOUT: 'timed out',
  ECONNRESET: 'connection reset',
};

/**
 * GETs JSON from one API server with the kubeconfig's TLS material and credentials, over one
 * kept-alive connection. Errors name the kubeconfig, the context and what was being read; the
 * credentials never appear in them.
 */
export class KubeApi {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(
    private readonly connection: ClusterConnection,
    private readonly timeoutMs = 60_000,
  ) {
    this.base = new URL(connection.server);
    this.agent =
      this.base.protocol === 'https:'
        ? new https.Agent({
            keepAlive: true,
            ca: connection.ca,
            cert: connection.cert,
            key: connection.key,
            rejectUnauthorized: !connection.insecureSkipTlsVerify,
            servername: connection.tlsServerName,
          })
        : new http.Agent({ keepAlive: true });
  }

  /** `kubeconfig F, context C` for error messages. */
  get where(): string {
    return `kubeconfig ${this.connection.kubeconfig}, context ${this.connection.context}`;
  }

  /** GET `apiPath` (e.g. /api/v1/pods) with query parameters; `what` names it in errors. */
  getJson<T>(apiPath: string, query: Record<string, string | undefined>, what: string): Promise<T> {
    const url = new URL(this.base.pathname.replace(/\/$/, '') + apiPath, this.base);
    for (const [name, value] of Object.entries(query))
      if (value !== undefined && value !== '') url.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.connection.authorization) headers.authorization = this.connection.authorization;
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<T>((resolve, reject) => {
      const request = transport.get(
        url,
        { agent: this.agent, headers, timeout: this.timeoutMs },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', (error) => reject(this.connectionError(error, what)));
          response.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            const status = response.statusCode ?? 0;
            if (status < 200 || status >= 300) {
              const reason = statusReason(body);
              const text = `${status} ${http.STATUS_CODES[status] ?? ''}`.trim();
              reject(
                new KubeApiStatusError(
                  status,
                  `${this.where}: ${what}: HTTP ${text}${reason && reason !== http.STATUS_CODES[status] ? ` (${reason})` : ''}`,
                ),
              );
              return;
            }
            try {
              resolve(JSON.parse(body) as T);
            } catch {
              reject(new ClusterAccessError(`${this.where}: ${what}: the server answered with invalid JSON`));
            }
          });
        },
      );
      request.on('timeout', () =>
        request.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
      );
      request.on('error', (error) => reject(this.connectionError(error, what)));
    });
  }

  private connectionError(error: Error, what: string): ClusterAccessError {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = CONNECTION_ERRORS[code] ?? (code ? `${code}: ${error.message}` : error.message);
    return new ClusterAccessError(
      `${this.where}: ${what}: cannot reach ${this.connection.server} (${reason})`,
    );
  }

  /** Closes the kept-alive connections so the process can exit. */
  close(): void {
    this.agent.destroy();
  }
}
