export { ApiKeyRepository } from './api-key.repository';
export { ProfileRepository } from './profile.repository';
export { RunRepository, type NewRun } from './run.repository';
export {
  RunResultRepository,
  type NewPlacement,
  type NewRunResult,
  type PlacementFilter,
} from './run-result.repository';
export { ScenarioRepository } from './scenario.repository';
export { SNAPSHOT_SUMMARY, SnapshotRepository, type NewSnapshot } from './snapshot.repository';
export { TenantRepository } from './tenant.repository';
export { WebhookRepository } from './webhook.repository';

import { ApiKeyRepository } from './api-key.repository';
import { ProfileRepository } from './profile.repository';
import { RunRepository } from './run.repository';
import { RunResultRepository } from './run-result.repository';
import { ScenarioRepository } from './scenario.repository';
import { SnapshotRepository } from './snapshot.repository';
import { TenantRepository } from './tenant.repository';
import { WebhookRepository } from './webhook.repository';

/** Every repository, registered (and exported) by DbModule. */
export const REPOSITORIES = [
  ApiKeyRepository,
  ProfileRepository,
  RunRepository,
  RunResultRepository,
  ScenarioRepository,
  SnapshotRepository,
  TenantRepository,
  WebhookRepository,
];
