/**
 * Wait before retry `n` of a run (n = 1 after the first failure): an exponential step
 * `base × 2^(n-1)`, capped at `max`, with "equal jitter" — half the step for sure, the other
 * half at random — so retries of events that failed together spread out, and never come sooner
 * than half the step.
 */
export function retryDelayMs(
  retry: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(retry - 1, 0), 40));
  return Math.round(step / 2 + random() * (step / 2));
}

const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * A `Retry-After` header (RFC 9110 §10.2.3) as ms from `now`: delay-seconds or an HTTP-date;
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now = Date.now(),
): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  // the IMF-fixdate senders must use (Date.parse alone would take almost any text)
  if (!IMF_FIXDATE.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
