import type { Command } from 'commander';
import { loadConfig } from '@schedlab/config';
import { type CreatedTenant, createTenantWithAdminKey, TenantNameTakenError } from '@schedlab/tenancy';
import { createPrismaClient } from '@schedlab/db';

/**
 * Operator bootstrap: creates a tenant and its first admin API key directly in the database
 * (DATABASE_URL), bypassing the api and tenant scoping. The key is printed once.
 */
export async function createTenant(databaseUrl: string, name: string): Promise<CreatedTenant> {
  const prisma = createPrismaClient(databaseUrl);
  try {
    return await createTenantWithAdminKey(prisma, name);
  } finally {
    await prisma.$disconnect();
  }
}

export function registerTenantCommand(program: Command): void {
  const tenant = program
    .command('tenant')
    .description('operator commands for tenants (talk to DATABASE_URL directly)');
  tenant
    .command('create <name>')
    .description('create a tenant and print its first admin API key (shown only once)')
    .option('--json', 'print the tenant and key as JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const write = (text: string) => program.configureOutput().writeOut?.(text);
      try {
        const created = await createTenant(loadConfig().databaseUrl, name.trim());
        if (options.json) {
          write(`${JSON.stringify(created, null, 2)}\n`);
          return;
        }
        write(
          [
            `tenant  ${created.tenant.name}  ${created.tenant.id}`,
            `api key ${created.apiKey.secret}`,
            `        scopes ${created.apiKey.scopes.join(',')}; store it now: it is not shown again.`,
            '',
          ].join('\n'),
        );
      } catch (error) {
        if (error instanceof TenantNameTakenError) {
          program.configureOutput().writeErr?.(`schedlab: ${error.message}\n`);
          process.exitCode = 1;
          return;
        }
        throw error;
      }
    });
}
