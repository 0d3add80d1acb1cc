import type { FieldIssue } from '@sluice/policy';

/** Input that does not satisfy a webhook schema; every issue names its field. */
export class WebhookInputError extends Error {
  override readonly name = 'WebhookInputError';

  constructor(readonly issues: readonly FieldIssue[]) {
    super(issues.map((issue) => `${issue.path || '(input)'}: ${issue.message}`).join('; '));
  }
}

/** A record in Redis that cannot be read back (corrupt, or written by something else). */
export class WebhookStoreError extends Error {
  override readonly name = 'WebhookStoreError';

  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`${key}: ${reason}`);
  }
}

export type DestinationFailure =
  /** Not an absolute http(s) URL without credentials. */
  | 'invalid-url'
  /** The host name does not resolve. */
  | 'unresolvable'
  /** The host resolves to an address webhooks may not reach (loopback, private, metadata…). */
  | 'forbidden-address';

/** A webhook destination Sluice refuses to send to; `message` says why, for the user. */
export class DestinationError extends Error {
  override readonly name = 'DestinationError';

  constructor(
    readonly reason: DestinationFailure,
    message: string,
  ) {
    super(message);
  }
}

/** A signing secret that cannot be decrypted: another key, or a ciphertext of another endpoint. */
export class SecretDecryptionError extends Error {
  override readonly name = 'SecretDecryptionError';
}
