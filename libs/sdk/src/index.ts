export {
  SluiceClient,
  type Enforcement,
  type FailMode,
  type LimitOptions,
  type Operation,
  type RequestOptions,
  type SluiceClientOptions,
} from './client';
export {
  AuthenticationError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PROBLEM_BASE,
  RateLimitedError,
  SluiceError,
  SluiceGuardError,
  UnavailableError,
  ValidationError,
  type SluiceErrorInit,
  type UnavailableReason,
} from './errors';
export type * from './types';
export { SDK_VERSION } from './version';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SEC,
  signWebhookPayload,
  verifyWebhookSignature,
  WEBHOOK_HEADERS,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookFailure,
  type WebhookHeaders,
} from './webhooks';
