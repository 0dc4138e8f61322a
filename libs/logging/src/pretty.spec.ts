import { prettyDestination, prettyLine } from './pretty';

describe('prettyLine (development logs)', () => {
  it('puts a request line in one readable line with its id, and keeps other fields', () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.UTC(2026, 10, 27, 12, 4, 5),
      pid: 1,
      hostname: 'h',
      service: 'api',
      req: { id: 'req-7', method: 'GET', url: '/v1/runs' },
      res: { statusCode: 404 },
      responseTime: 4,
      msg: 'request completed',
      tenant: 't1',
    });
    expect(prettyLine(line)).toBe(
      '12:04:05 INFO  [api] GET /v1/runs 404 4ms (req-7) request completed {"tenant":"t1"}\n',
    );
  });

  it('names the Nest context and level of an ordinary line', () => {
    const line = JSON.stringify({ level: 40, time: 0, context: 'RunsService', msg: 'queue down' });
    expect(prettyLine(line)).toBe('00:00:00 WARN  [RunsService] queue down\n');
  });

  it('passes a line that is not JSON through unchanged, and the destination writes each line', () => {
    expect(prettyLine('plain text')).toBe('plain text');
    const out: string[] = [];
    prettyDestination({ write: (chunk: string) => out.push(chunk) }).write(
      `${JSON.stringify({ level: 50, time: 0, msg: 'a' })}\n`,
    );
    expect(out).toEqual(['00:00:00 ERROR a\n']);
  });
});
