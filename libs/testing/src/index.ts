export {
  createTestDatabase,
  runPrisma,
  serverUrl,
  uniqueName,
  withDatabase,
  type TestDatabase,
} from './test-database';
export { closedPort } from './ports';
export { testConfig } from './test-config';
