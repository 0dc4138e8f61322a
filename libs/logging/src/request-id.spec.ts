import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestIdFor } from './logging.module';

function exchange(headers: Record<string, string>) {
  const set: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => (set[name] = value),
  } as unknown as ServerResponse;
  return { req: { headers } as unknown as IncomingMessage, res, set };
}

describe('requestIdFor', () => {
  it('keeps a well-formed id from the caller and echoes it back', () => {
    const { req, res, set } = exchange({ 'x-request-id': 'abc-123' });
    expect(requestIdFor(req, res)).toBe('abc-123');
    expect(set['x-request-id']).toBe('abc-123');
  });

  it('replaces a malformed id with a fresh uuid', () => {
    const { req, res } = exchange({ 'x-request-id': 'bad id with spaces' });
    expect(requestIdFor(req, res)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('mints distinct ids when none is given', () => {
    const a = exchange({});
    const b = exchange({});
    expect(requestIdFor(a.req, a.res)).not.toBe(requestIdFor(b.req, b.res));
  });
});
