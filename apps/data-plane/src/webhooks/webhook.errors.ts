import { EngineError } from '@sluice/engine';

/** No endpoint of that id or name in the key's tenant; another tenant's are never seen (404). */
export class WebhookEndpointNotFoundError extends EngineError {
  override readonly name = 'WebhookEndpointNotFoundError';
  readonly status = 404;
  readonly problem = 'webhook-endpoint-not-found';
  readonly title = 'Not Found';

  constructor(endpoint: string) {
    super(`No webhook endpoint ${JSON.stringify(endpoint)}.`);
  }
}

/** The endpoint is disabled: it takes no events until it is enabled again (409). */
export class WebhookEndpointDisabledError extends EngineError {
  override readonly name = 'WebhookEndpointDisabledError';
  readonly status = 409;
  readonly problem = 'webhook-endpoint-disabled';
  readonly title = 'Conflict';

  constructor(endpoint: string) {
    super(`Webhook endpoint ${JSON.stringify(endpoint)} is disabled and takes no events.`);
  }
}

/** The idempotency key is in use by a request still running, or was used for another event (409). */
export class IdempotencyConflictError extends EngineError {
  override readonly name = 'IdempotencyConflictError';
  readonly status = 409;
  readonly problem = 'idempotency-key-conflict';
  readonly title = 'Conflict';

  constructor(reason: 'in-progress' | 'mismatch') {
    super(
      reason === 'mismatch'
        ? 'This idempotency key was used for another event (endpoint, type or payload).'
        : 'A request with this idempotency key is still being handled; repeat it in a moment.',
    );
  }
}
