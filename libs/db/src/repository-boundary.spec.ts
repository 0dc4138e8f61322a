import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Every query lives in a repository (libs/db/src/repositories/*.repository.ts): services hold the
 * logic and pass a client or transaction to repositories, never calling Prisma themselves. The
 * same rule is an ESLint error (eslint.config.mjs, "repository boundary"); this test keeps it
 * checked where lint is not run. Tests and their fixtures may still set rows up directly.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const MODELS =
  'tenant|apiKey|snapshot|schedulerProfile|scenario|run|runResult|placement|podExplanation|webhookEndpoint|webhookDelivery|webhookAttempt';
const DELEGATE_CALL = new RegExp(
  `\\.(?:${MODELS})\\s*\\.\\s*(?:find\\w*|create\\w*|update\\w*|upsert|delete\\w*|count|aggregate|groupBy)\\s*\\(`,
);
const RAW = /\.\$(?:transaction|queryRaw|queryRawUnsafe|executeRaw|executeRawUnsafe)\b/;
/** Where Prisma may be called: repositories and the client/transaction plumbing beside them. */
const ALLOWED = [/\.repository\.ts$/, /^libs\/db\/src\/(database|prisma\.service)\.ts$/];
const EXEMPT = [/\.spec\.ts$/, /^apps\/e2e\//, /^libs\/testing\//, /\/generated\//];

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(rel);
    return rel.endsWith('.ts') ? [rel] : [];
  });
}

describe('repository boundary', () => {
  it('no Prisma query outside a repository', () => {
    const offenders: string[] = [];
    for (const file of [...sources('apps'), ...sources('libs')]) {
      if (ALLOWED.some((re) => re.test(file)) || EXEMPT.some((re) => re.test(file))) continue;
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (DELEGATE_CALL.test(line) || RAW.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it('recognises a Prisma query when it sees one', () => {
    expect(DELEGATE_CALL.test('await tx.run.findMany({')).toBe(true);
    expect(DELEGATE_CALL.test('this.prisma.placement\n')).toBe(false);
    expect(RAW.test('await prisma.$transaction(async (tx) => {')).toBe(true);
  });
});
