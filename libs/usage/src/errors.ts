/** A reader was called with a bad argument, or the recorder with bad options (map to HTTP 400). */
export class UsageInputError extends Error {
  override readonly name = 'UsageInputError';
}

/** Some commands of a flush failed; their share is kept in memory and retried on the next flush. */
export class UsageFlushError extends Error {
  override readonly name = 'UsageFlushError';

  constructor(
    /** Commands that failed out of those sent. */
    readonly failedCommands: number,
    readonly sentCommands: number,
    cause: unknown,
  ) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`usage flush: ${failedCommands} of ${sentCommands} commands failed (${detail})`, {
      cause,
    });
  }
}
