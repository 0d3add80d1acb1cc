import { RETRY_NEVER } from '@sluice/algorithms';
import { serializeItem, serializeList } from 'structured-headers';
import { PROBLEM_BASE, type ProblemDetails } from './errors';
import type { CheckResult, RuleResult } from './types';

const seconds = (ms: number) => Math.ceil(ms / 1000);

/** RFC 8941 §3.3.1: an Integer has at most 15 digits. */
const MAX_SF_INTEGER = 999_999_999_999_999;
/** Rule names are few (a policy's names), but not trusted to be: the memo is bounded. */
const MAX_NAME_ITEMS = 10_000;
const nameItems = new Map<string, string>();

/** A rule name as an RFC 8941 String (`"burst"`), serialized by the library once per name. */
function nameItem(name: string): string {
  let item = nameItems.get(name);
  if (item === undefined) {
    if (nameItems.size >= MAX_NAME_ITEMS) nameItems.clear();
    item = serializeItem(name);
    nameItems.set(name, item);
  }
  return item;
}

const isSfInteger = (value: number) => Number.isInteger(value) && Math.abs(value) <= MAX_SF_INTEGER;

/**
 * A draft-11 list field: one `"<rule>";<a>=<integer>;<b>=<integer>` item per rule. The names are
 * the library's serialization (memoized: the costly part, quoting and escaping), the integers
 * their decimal form, which is all RFC 8941 makes of an Integer; anything else (a fractional
 * quota) is left to the library, which serializes or refuses it.
 */
function listField(
  rules: readonly RuleResult[],
  a: string,
  first: (rule: RuleResult) => number,
  b: string,
  second: (rule: RuleResult) => number,
): string {
  let field = '';
  for (const rule of rules) {
    const x = first(rule);
    const y = second(rule);
    if (!isSfInteger(x) || !isSfInteger(y)) {
      return serializeList(
        rules.map((member) => [
          member.name,
          new Map([
            [a, first(member)],
            [b, second(member)],
          ]),
        ]),
      );
    }
    field += `${field === '' ? '' : ', '}${nameItem(rule.name)};${a}=${x};${b}=${y}`;
  }
  return field;
}

const quota = (rule: RuleResult) => rule.quota;
const windowSeconds = (rule: RuleResult) => seconds(rule.windowMs);
const remaining = (rule: RuleResult) => Math.max(0, rule.remaining);

/**
 * The rate-limit headers of an answer: `X-RateLimit-Limit`, `-Remaining` (never below 0) and
 * `-Reset` (epoch seconds, rounded up) from the headline rule; the IETF draft-11 fields
 * `RateLimit-Policy` and `RateLimit` with one item per live rule (RFC 8941 lists); and
 * `Retry-After` (seconds, rounded up) when denied and a retry can succeed. Without rule figures
 * (suspended, fail-open, fail-closed) only `Retry-After` may be present.
 */
export function rateLimitHeaders(result: CheckResult): Record<string, string> {
  const headers: Record<string, string> = {};
  if (result.rules.length > 0) {
    headers['X-RateLimit-Limit'] = String(result.limit);
    headers['X-RateLimit-Remaining'] = String(Math.max(0, result.remaining));
    headers['X-RateLimit-Reset'] = String(seconds(result.resetAt));
    headers['RateLimit-Policy'] = listField(result.rules, 'q', quota, 'w', windowSeconds);
    headers['RateLimit'] = listField(result.rules, 'r', remaining, 't', (rule) =>
      Math.max(0, seconds(rule.resetAt - result.at)),
    );
  }
  if (!result.allowed && result.retryAfterMs > 0) {
    headers['Retry-After'] = String(seconds(result.retryAfterMs));
  }
  return headers;
}

const UNITS: [number, string][] = [
  [1000, 'second'],
  [60_000, 'minute'],
  [3_600_000, 'hour'],
  [86_400_000, 'day'],
];

/** "per minute", "per calendar day", else "per N seconds". */
function perWindow(rule: RuleResult): string {
  if (rule.calendarUnit) return `per calendar ${rule.calendarUnit}`;
  const unit = UNITS.find(([ms]) => ms === rule.windowMs);
  if (unit) return `per ${unit[1]}`;
  const count = Number((rule.windowMs / 1000).toFixed(3));
  return `per ${count} ${count === 1 ? 'second' : 'seconds'}`;
}

function retryText(retryAfterMs: number): string {
  if (retryAfterMs === RETRY_NEVER) {
    return 'This request costs more than the limit allows, so retrying cannot succeed.';
  }
  const wait = seconds(retryAfterMs);
  return `Retry after ${wait} ${wait === 1 ? 'second' : 'seconds'}.`;
}

/**
 * The RFC 9457 body for a denied result: `rule`/`local` → 429 `rate-limited`, worded from the
 * denying rule ("Rate limit of 100 requests per minute exceeded. Retry after 30 seconds.");
 * `fail-closed` → 503 `temporary-reduced-capacity`; `suspended` → 403 `tenant-suspended` (a
 * retry cannot help, so not a 429). Throws for an allowed result.
 */
export function problemForDenial(result: CheckResult, instance: string): ProblemDetails {
  if (result.allowed) throw new TypeError('problemForDenial: the result is allowed');
  switch (result.reason) {
    case 'fail-closed':
      return {
        type: `${PROBLEM_BASE}temporary-reduced-capacity`,
        title: 'Service Unavailable',
        status: 503,
        detail: `Rate limits cannot be checked right now, so requests are refused. ${retryText(result.retryAfterMs)}`,
        instance,
      };
    case 'suspended':
      return {
        type: `${PROBLEM_BASE}tenant-suspended`,
        title: 'Forbidden',
        status: 403,
        detail: 'The account this API key belongs to is suspended.',
        instance,
      };
    default: {
      const rule = result.rules.find((candidate) => candidate.name === result.deniedBy);
      const limit = rule
        ? `Rate limit of ${rule.quota} ${rule.quota === 1 ? 'request' : 'requests'} ${perWindow(rule)} exceeded.`
        : 'Rate limit exceeded.';
      return {
        type: `${PROBLEM_BASE}rate-limited`,
        title: 'Too Many Requests',
        status: 429,
        detail: `${limit} ${retryText(result.retryAfterMs)}`,
        instance,
        'violated-policies': result.rules.filter((r) => !r.allowed).map((r) => r.name),
      };
    }
  }
}
