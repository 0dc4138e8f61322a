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
export {
  binaryPath,
  buildControlPlane,
  goVersion,
  startTestCluster,
  type ObjectJson,
  type TestCluster,
} from './test-cluster';
export { DRA_GPUS_DEVICES, DRA_GPUS_POD_DEVICES } from './dra-gpus';
