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
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
];
