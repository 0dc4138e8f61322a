import { judgeAttempt, parseRetryAfter, retryDelayMs } from './retry-policy';

describe('webhook retry policy', () => {
  it('retries network errors, 5xx and 429, and rejects other 4xx and redirects', () => {
    expect(judgeAttempt({ latencyMs: 1, error: 'ECONNREFUSED' }).kind).toBe('retry');
    expect(judgeAttempt({ latencyMs: 1, statusCode: 503 }).kind).toBe('retry');
    expect(judgeAttempt({ latencyMs: 1, statusCode: 429, retryAfter: '7' })).toEqual({
      kind: 'retry',
      reason: 'receiver answered 429',
      retryAfterMs: 7000,
    });
    expect(judgeAttempt({ latencyMs: 1, statusCode: 400 }).kind).toBe('rejected');
    expect(judgeAttempt({ latencyMs: 1, statusCode: 302 }).kind).toBe('rejected');
    expect(judgeAttempt({ latencyMs: 1, statusCode: 410 }).kind).toBe('gone');
    expect(judgeAttempt({ latencyMs: 1, statusCode: 204 }).kind).toBe('delivered');
  });

  it('reads Retry-After as seconds or an HTTP date, capped at an hour', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('999999', now)).toBe(3_600_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('doubles the delay per attempt, jittered within the upper half, and honours a longer Retry-After', () => {
    expect(retryDelayMs(1, 1000, undefined, () => 0)).toBe(500);
    expect(retryDelayMs(1, 1000, undefined, () => 1)).toBe(1000);
    expect(retryDelayMs(4, 1000, undefined, () => 1)).toBe(8000);
    expect(retryDelayMs(1, 1000, 60_000, () => 1)).toBe(60_000);
  });
});
