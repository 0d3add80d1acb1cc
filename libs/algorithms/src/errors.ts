/** Input rejected before any Redis call; `field` names the offending input (e.g. `rules[1].cost`). */
export class AlgorithmInputError extends Error {
  override readonly name = 'AlgorithmInputError';

  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/**
 * The composite script started after the call's `deadline` (by the script's clock), so it read
 * and wrote nothing: the caller had already answered without it.
 */
export class DeadlineExceededError extends Error {
  override readonly name = 'DeadlineExceededError';

  constructor(readonly deadline: number) {
    super(`the check started in Redis after its deadline ${new Date(deadline).toISOString()}`);
  }
}
