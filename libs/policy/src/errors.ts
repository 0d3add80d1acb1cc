/** One rejected input field: `path` like `policies[0].rules[1].capacity`. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** Input that does not satisfy the policy schema; every issue names its field. */
export class PolicyValidationError extends Error {
  override readonly name = 'PolicyValidationError';

  constructor(readonly issues: readonly FieldIssue[]) {
    super(
      `Invalid policy input:\n${issues.map((issue) => `  ${issue.path || '(input)'}: ${issue.message}`).join('\n')}`,
    );
  }
}

/** A record in Redis that cannot be read back (corrupt or written by something else). */
export class PolicyStoreError extends Error {
  override readonly name = 'PolicyStoreError';

  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`${key}: ${reason}`);
  }
}

/** A publish whose version is not above the stored one: versions only grow. */
export class VersionConflictError extends Error {
  override readonly name = 'VersionConflictError';

  constructor(
    readonly tenantId: string,
    readonly offered: number,
    readonly stored: number,
  ) {
    super(
      `tenant ${tenantId}: version ${offered} refused, the stored version is ${stored} (versions only grow)`,
    );
  }
}
