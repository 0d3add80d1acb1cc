export {
  generateApiKeySecret,
  hashApiKey,
  putApiKey,
  readApiKey,
  revokeApiKey,
  type ApiKeyRecord,
  type ApiKeyScope,
} from './api-keys';
export { subscribeChanges, type ChangeMessage, type SubscribeOptions } from './changes';
export type {
  CompiledConcurrencyRule,
  CompiledOverride,
  CompiledPolicy,
  CompiledRule,
  CompiledTenant,
  FailMode,
  OverrideMatch,
  PolicyMode,
  ReservationSettings,
  TenantStatus,
  UnpublishedTenant,
} from './compiled';
export {
  PolicyStoreError,
  PolicyValidationError,
  VersionConflictError,
  type FieldIssue,
} from './errors';
export { apiKeyKey, changesChannel, tenantKey } from './keys';
export { fieldIssues, formatPath, ID_PATTERN, NAME_PATTERN, SLUG_PATTERN } from './names';
export {
  CANDIDATE_KEY_PREFIX,
  compileTenant,
  DEFAULT_REDIS_TIMEOUT_MS,
  DEFAULT_RESERVATION_TTL_MS,
  MAX_OVERRIDES,
  MAX_POLICIES,
  type OverrideInput,
  type PolicyInput,
  type RuleInput,
  type TenantConfigInput,
} from './schema';
export { deleteTenant, publishTenant, readTenant, readTenantVersions } from './store';
