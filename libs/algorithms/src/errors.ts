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
