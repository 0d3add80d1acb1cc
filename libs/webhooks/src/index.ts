export {
  ADMISSION_REFUND_WINDOW_MS,
  admissionRuleSet,
  admitWebhookEvent,
  dispatchRule,
  IDEMPOTENCY_WINDOW_MS,
  type AdmissionResult,
  type WebhookEventInput,
} from './admission';
export {
  allowedCidrsEnvField,
  DENY_NON_PUBLIC,
  forbiddenRange,
  parseCidrList,
  resolveDestination,
  type Cidr,
  type DestinationPolicy,
  type Lookup,
  type ResolvedAddress,
} from './destination';
export {
  DestinationError,
  SecretDecryptionError,
  WebhookInputError,
  WebhookStoreError,
  type DestinationFailure,
} from './errors';
export {
  eventBody,
  EVENT_TYPE_PATTERN,
  IDEMPOTENCY_KEY_PATTERN,
  isEventId,
  MAX_PAYLOAD_BYTES,
  newEventId,
  webhookEventFields,
  type WebhookEvent,
} from './event';
export {
  ENABLED_ENDPOINTS_FIELD,
  endpointIndexKey,
  endpointKeys,
  endpointsKey,
  idempotencyKey,
  QUEUE_ID_HASH,
  type EndpointKeys,
} from './keys';
export {
  bullPrefix,
  createWebhookQueue,
  DELIVER_JOB,
  deliveryJobSchema,
  WEBHOOK_QUEUE,
  type DeliveryJob,
} from './queue';
export {
  admitOwnEvent,
  POLICY_PUBLISHED_EVENT,
  QUOTA_THRESHOLD_EVENT,
  type OwnEventAdmission,
  type OwnEventInput,
} from './own-events';
export { REPLAY_BATCH, replayDeadLetters, type ReplayOutcome } from './replay';
export {
  bookSendSlot,
  readEndpointRuntime,
  recordOutcome,
  releaseInFlightLease,
  takeInFlightLease,
  type AttemptOutcome,
  type EndpointRuntime,
  type OutcomeOptions,
} from './runtime';
export {
  decryptSecret,
  encryptSecret,
  generateSigningSecret,
  parseSecretsKey,
  SECRETS_KEY_BYTES,
  secretsKeyEnvField,
  type SecretOwner,
} from './secrets';
export {
  parseWebhookEndpointSettings,
  urlProblem,
  WEBHOOK_LIMITS,
  webhookEndpointFields,
  webhookEndpointSettingsSchema,
  webhookUrlSchema,
  type WebhookEndpointSettings,
} from './settings';
export { signatureHeader, signedHeaders } from './signing';
export { drainEstimateMs, readQueueStats, type QueueStats } from './stats';
export {
  listPublishedEndpoints,
  listTenantEndpoints,
  publishWebhookEndpoints,
  readWebhookEndpoint,
  toPublishedEndpoint,
  type PublishedEndpoint,
  type PublishOutcome,
  type WebhookEndpointRecord,
} from './store';
