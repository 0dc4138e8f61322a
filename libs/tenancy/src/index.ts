// Public API of @schedlab/tenancy: tenants and their API keys (creation, hashing, lookup by secret).
export { API_KEY_SCOPES, type ApiKeyScope, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-keys';
export {
  createTenantWithAdminKey,
  findApiKeyBySecret,
  TenantNameTakenError,
  type CreatedTenant,
  type AuthenticatedKey,
} from './tenants';
