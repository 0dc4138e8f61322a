export { API_KEY_SCOPES, type ApiKeyScope, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-keys';
export {
  createTenantWithAdminKey,
  findApiKeyBySecret,
  TenantNameTakenError,
  type CreatedTenant,
  type AuthenticatedKey,
} from './tenants';
export {
  canonicalJson,
  packSnapshotItems,
  unpackSnapshotItems,
  type PackedSnapshot,
} from './snapshot-content';
