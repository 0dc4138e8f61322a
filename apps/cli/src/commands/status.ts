import type { Command } from 'commander';

interface ReadyzBody {
  status?: string;
  checks?: Record<string, string>;
}

/** Asks a running api whether it and its dependencies are ready. Exit 0 if ready, 1 if not. */
export async function reportStatus(apiUrl: string, print: (line: string) => void): Promise<boolean> {
  const url = new URL('/readyz', apiUrl);
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    print(`api ${apiUrl}: unreachable (${(error as Error).cause ?? (error as Error).message})`);
    return false;
  }
  const body = (await response.json().catch(() => ({}))) as ReadyzBody;
  print(`api ${apiUrl}: ${body.status ?? `HTTP ${response.status}`}`);
  for (const [dependency, state] of Object.entries(body.checks ?? {})) print(`  ${dependency}: ${state}`);
  return response.ok;
}

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('check that a running Schedlab api and its PostgreSQL and Redis are ready')
    .option('--api <url>', 'base URL of the api', process.env.SCHEDLAB_API_URL ?? 'http://localhost:3000')
    .action(async (options: { api: string }) => {
      const ready = await reportStatus(options.api, (line) =>
        program.configureOutput().writeOut?.(`${line}\n`),
      );
      if (!ready) process.exitCode = 1;
    });
}
