// Flat ESLint config. The module-boundary rule keeps dependencies pointing one way:
// apps -> service libs -> core libs, and keeps the simulation core free of infrastructure.
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';

const infrastructurePackages = [
  '@nestjs/*',
  '@prisma/*',
  'prisma',
  'pg',
  'bullmq',
  'ioredis',
  '@apollo/*',
  'graphql',
  'nestjs-pino',
  'pino',
];

// Repository boundary (issue #14): every Prisma query lives in a *.repository.ts file; services
// pass a client or transaction to repositories. libs/db/src/repository-boundary.spec.ts checks the same.
const prismaModels =
  'tenant|apiKey|snapshot|schedulerProfile|scenario|run|runResult|placement|podExplanation|webhookEndpoint|webhookDelivery|webhookAttempt';
const repositoryBoundary = {
  files: ['apps/**/*.ts', 'libs/**/*.ts'],
  ignores: [
    '**/*.repository.ts',
    'libs/db/src/database.ts',
    'libs/db/src/prisma.service.ts',
    '**/*.spec.ts',
    'apps/e2e/**',
    'libs/testing/**',
  ],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: `CallExpression > MemberExpression.callee[property.name=/^(find|create|update|upsert|delete|count|aggregate|groupBy)/] > MemberExpression.object[property.name=/^(${prismaModels})$/]`,
        message: 'Prisma queries live in repositories (libs/db/src/repositories); call a repository method.',
      },
      {
        selector:
          'MemberExpression[property.name=/^\\$(transaction|queryRaw|queryRawUnsafe|executeRaw|executeRawUnsafe)$/]',
        message: 'Transactions and raw SQL live in libs/db (inTransaction, withTenant, repositories).',
      },
    ],
  },
};

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  prettier,
  { ignores: ['**/node_modules', '**/dist', '**/tmp', '**/coverage', '**/generated/**', '.nx'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            {
              sourceTag: 'scope:core',
              onlyDependOnLibsWithTags: ['scope:core'],
              bannedExternalImports: infrastructurePackages,
            },
            { sourceTag: 'scope:service', onlyDependOnLibsWithTags: ['scope:service', 'scope:core'] },
            { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['scope:service', 'scope:core'] },
            { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:service'] },
          ],
        },
      ],
      // A leading underscore marks a value left out on purpose (e.g. dropped by rest destructuring).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  repositoryBoundary,
];
