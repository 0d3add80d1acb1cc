/** One rule's figures after a check, as the engine reports them (its `RuleResult` fits). */
export interface RuleFigures {
  readonly name: string;
  readonly algorithm: string;
  readonly limit: number;
  /** Whole units left after the check (negative in debt). */
  readonly remaining: number;
  /** Ms epoch: a fixed window's end. */
  readonly resetAt: number;
  /** The window's length (a calendar window's current one). */
  readonly windowMs: number;
  // for the decision log (what the caller was told); absent in figures made by hand
  readonly allowed?: boolean;
  readonly retryAfterMs?: number;
  /** Units per window as `RateLimit-Policy` states it. */
  readonly quota?: number;
  readonly calendarUnit?: string;
}

/** The answer's headline figures, as the engine reports them (its `CheckResult` fits). */
export interface AnswerFigures {
  readonly limit: number;
  readonly remaining: number;
  readonly resetAt: number;
  readonly retryAfterMs: number;
}
