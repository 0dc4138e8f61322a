import { REDACTED, redactingDestination, redactSecrets, urlPassword } from './redact';

describe('redactSecrets', () => {
  const key = `sl_${'Ab1_-'.repeat(8)}xyz`;
  it.each([
    [`{"headers":{"authorization":"Bearer ${key}"}}`, key],
    [`{"url":"/v1/snapshots?token=${key}"}`, key],
    ['{"msg":"secret whsec_c2VjcmV0LXNpZ25pbmcta2V5MTIz"}', 'c2VjcmV0LXNpZ25pbmcta2V5MTIz'],
    ['{"err":"connect postgresql://app:hunter2pw@db:5432/x failed"}', 'hunter2pw'],
    ['{"redis":"redis://:r3dis-pass@cache:6379"}', 'r3dis-pass'],
    ['{"authorization":"Basic dXNlcjpwYXNz"}', 'dXNlcjpwYXNz'],
    ['{"cookie":"session=abc123; other=def"}', 'abc123'],
  ])('removes the secret from %s', (line, secret) => {
    const out = redactSecrets(line);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it('removes literal configured secrets (operator token) wherever they appear', () => {
    expect(redactSecrets('{"msg":"token op-token-123456 used"}', ['op-token-123456'])).toBe(
      `{"msg":"token ${REDACTED} used"}`,
    );
  });

  it('leaves ordinary lines alone', () => {
    const line = '{"level":30,"msg":"request completed","url":"/v1/snapshots?limit=5","responseTime":3}';
    expect(redactSecrets(line, ['op-token-123456'])).toBe(line);
  });

  it('urlPassword and the destination', () => {
    expect(urlPassword('postgresql://u:p%40ssw0rd@h/db')).toBe('p@ssw0rd');
    expect(urlPassword('postgresql://u@h/db')).toBeUndefined();
    const lines: string[] = [];
    redactingDestination(['p@ssw0rd'], { write: (l: string) => lines.push(l) }).write('{"x":"p@ssw0rd"}\n');
    expect(lines).toEqual([`{"x":"${REDACTED}"}\n`]);
  });
});
