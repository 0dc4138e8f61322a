import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { postWebhook, RESPONSE_SNIPPET_BYTES } from './http-attempt';
import { generateWebhookSecret, newMessageId, signWebhook } from './signing';

describe('one webhook attempt against a local receiver', () => {
  let server: Server;
  let port: number;
  let respond: (req: { headers: Record<string, string | string[] | undefined>; body: string }) => {
    status: number;
    body?: string;
    headers?: Record<string, string>;
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const answer = respond({ headers: req.headers, body });
        res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const target = { address: '127.0.0.1', family: 4 as const };

  it('sends a body whose signature the receiver verifies with the Standard Webhooks procedure', async () => {
    const secret = generateWebhookSecret();
    const id = newMessageId();
    const body = JSON.stringify({ type: 'simulation.succeeded', data: { runId: 'r1' } });
    let verified: unknown;
    respond = ({ headers, body: received }) => {
      verified = new Webhook(secret).verify(received, headers as Record<string, string>);
      return { status: 204 };
    };
    const outcome = await postWebhook({
      url: new URL(`http://receiver.test:${port}/hook`), // the name never resolves: the pinned address is used
      target,
      headers: { ...signWebhook(secret, id, body) },
      body,
      timeoutMs: 5000,
    });
    expect(outcome.statusCode).toBe(204);
    expect(verified).toEqual({ type: 'simulation.succeeded', data: { runId: 'r1' } });
  });

  it('does not follow redirects and truncates the logged response', async () => {
    respond = () => ({
      status: 307,
      headers: { location: 'http://169.254.169.254/' },
      body: 'x'.repeat(5000),
    });
    const outcome = await postWebhook({
      url: new URL(`http://127.0.0.1:${port}/`),
      target,
      headers: {},
      body: '{}',
      timeoutMs: 5000,
    });
    expect(outcome.statusCode).toBe(307);
    expect(outcome.responseSnippet!.length).toBeLessThanOrEqual(RESPONSE_SNIPPET_BYTES);
  });

  it('reports Retry-After and a refused connection', async () => {
    respond = () => ({ status: 429, headers: { 'retry-after': '3' } });
    const limited = await postWebhook({
      url: new URL(`http://127.0.0.1:${port}/`),
      target,
      headers: {},
      body: '{}',
      timeoutMs: 5000,
    });
    expect(limited).toMatchObject({ statusCode: 429, retryAfter: '3' });
    const refused = await postWebhook({
      url: new URL('http://127.0.0.1:1/'),
      target: { address: '127.0.0.1', family: 4 },
      headers: {},
      body: '{}',
      timeoutMs: 5000,
    });
    expect(refused.statusCode).toBeUndefined();
    expect(refused.error).toMatch(/ECONNREFUSED/);
  });
});
