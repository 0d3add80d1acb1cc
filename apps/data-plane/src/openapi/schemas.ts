import type { Algorithm, AnyAlgorithm } from '@sluice/algorithms';
import {
  PROBLEM_BASE,
  type CheckResult,
  type DecisionReason,
  type ReleaseResult,
  type RuleResult,
  type SettledRuleResult,
  type SettleResult,
} from '@sluice/engine';
import type { Liveness, Readiness } from '@sluice/nest-kit';
import { z } from 'zod';

/**
 * The answers' schemas, for the OpenAPI document only (answers are built by the engine). The
 * assertions at the end fail to compile when they and the engine's types drift apart.
 */

const RATE_ALGORITHMS = [
  'token_bucket',
  'leaky_bucket',
  'fixed_window',
  'sliding_window_log',
  'sliding_window_counter',
  'gcra',
] as const;

/** The rate rules: what a settle adjusts. */
const rateAlgorithm = z.enum(RATE_ALGORITHMS);

/** Every rule a check decides: the rate rules and concurrency (leases in flight). */
const algorithm = z.enum([...RATE_ALGORITHMS, 'concurrency']);

const decisionReason = z
  .enum(['allowed', 'rule', 'shadow', 'suspended', 'fail-open', 'fail-closed', 'local'])
  .meta({
    description:
      'Why: `allowed`; `rule` (a live rule denied, see `deniedBy`); `shadow` (shadow mode, a rule would have denied: allowed); `suspended` (the tenant is suspended: denied); `fail-open` / `fail-closed` / `local` (Redis failed or exceeded the policy timeout, and the policy’s fail mode decided).',
  });

const msEpoch = z.number().meta({ description: 'Milliseconds since the Unix epoch.' });

export const ruleResultSchema = z.object({
  name: z.string(),
  algorithm,
  allowed: z.boolean(),
  limit: z.number().meta({ description: 'Capacity, limit or burst.' }),
  remaining: z
    .number()
    .meta({ description: 'Whole units left; negative while the rule is in debt.' }),
  resetAt: msEpoch.meta({
    description: 'When the rule is back to full (buckets) or empty (windows), ms epoch.',
  }),
  retryAfterMs: z.number().meta({
    description: 'Ms until the same cost could pass: 0 when allowed, -1 when it never can.',
  }),
  delayMs: z
    .number()
    .optional()
    .meta({ description: 'Leaky bucket only: ms the request waits in the queue.' }),
  quota: z.number().meta({
    description:
      'Units per window, as `RateLimit-Policy` states it; concurrency: the most requests in flight.',
  }),
  windowMs: z.number().meta({
    description: 'The window of `quota` in ms; concurrency: the lease TTL.',
  }),
  calendarUnit: z
    .enum(['day', 'month'])
    .optional()
    .meta({ description: 'Set for calendar windows.' }),
});

export const checkResultSchema = z.object({
  allowed: z.boolean(),
  policy: z.string(),
  identifier: z.string(),
  limit: z.number().meta({
    description:
      'The headline rule’s limit (the denying rule, else the least remaining share); 0 without rule figures.',
  }),
  remaining: z.number(),
  resetAt: msEpoch,
  retryAfterMs: z.number().meta({
    description:
      '0 when allowed; else ms until the same cost could pass, -1 when it never can (or the tenant is suspended).',
  }),
  delayMs: z.number().optional(),
  rules: z.array(ruleResultSchema).meta({
    description:
      'One per live rule: the rate rules in policy order, then the concurrency rules; empty for suspended, fail-open and fail-closed.',
  }),
  deniedBy: z
    .string()
    .optional()
    .meta({ description: 'The rule that denied (or, in shadow mode, would have).' }),
  reason: decisionReason,
  overrideId: z.string().optional().meta({ description: 'The identifier override that applied.' }),
  shadowDenied: z
    .boolean()
    .optional()
    .meta({ description: 'Shadow-mode policies only: whether a live rule would have denied.' }),
  candidates: z
    .array(ruleResultSchema)
    .optional()
    .meta({ description: 'Candidate rules evaluated in shadow (own counters, never deny).' }),
  at: msEpoch.meta({ description: 'When the decision was made, ms epoch.' }),
  reservationId: z.string().optional().meta({
    description:
      'Present when the policy has reservations and the check charged a cost > 0 (allowed, not a dry run): settle it with `POST /v1/settle`.',
  }),
  reservationExpiresAt: msEpoch.optional().meta({
    description: 'When an unsettled reservation expires and counts at its estimate, ms epoch.',
  }),
  leaseId: z.string().optional().meta({
    description:
      'Present when the policy has a concurrency rule and the check took a slot (allowed, cost > 0, not a dry run): release it with `POST /v1/release`.',
  }),
  leaseExpiresAt: msEpoch.optional().meta({
    description: 'When the lease frees its slot by itself if never released, ms epoch.',
  }),
});

export const settledRuleResultSchema = z.object({
  name: z.string(),
  algorithm: rateAlgorithm,
  charged: z.number().meta({
    description:
      'Units applied: the overrun (actual − estimate) in full, even into debt; for a refund the part that had somewhere to go (0 once the charged window or log entry is gone, or the bucket is full); 0 on a repeated settle.',
  }),
  allowed: z
    .boolean()
    .meta({ description: 'Whether a cost-0 check would pass now (false while in debt).' }),
  limit: z.number().meta({ description: 'The limit the reservation was charged under.' }),
  remaining: z
    .number()
    .meta({ description: 'Whole units left after the settle; negative while in debt.' }),
  resetAt: msEpoch,
  retryAfterMs: z.number().meta({ description: 'Ms until a cost-0 check passes.' }),
  delayMs: z.number().optional().meta({ description: 'Leaky bucket only.' }),
});

export const settleResultSchema = z.object({
  reservationId: z.string(),
  settled: z.literal(true),
  alreadySettled: z.boolean().meta({
    description: 'A settle came first: nothing changed, and `actualCost` is the first settle’s.',
  }),
  estimate: z.number().meta({ description: 'The cost the check charged.' }),
  actualCost: z.number(),
  rules: z.array(settledRuleResultSchema).meta({
    description:
      'The live rate rules the reservation charged that the policy still has (concurrency rules are released, not settled).',
  }),
});

export const releaseResultSchema = z.object({
  leaseId: z.string(),
  released: z.boolean().meta({
    description:
      'False when the lease was not held any more (released before, or expired): harmless.',
  }),
});

/** Every problem type the data plane answers with, and when. */
export const PROBLEM_TYPES = {
  [`${PROBLEM_BASE}rate-limited`]: '429: a rule denied (gateway mode, or /v1/authorize).',
  [`${PROBLEM_BASE}tenant-suspended`]:
    '403: the API key’s tenant is suspended (gateway mode, or /v1/authorize).',
  [`${PROBLEM_BASE}temporary-reduced-capacity`]:
    '503: Redis failed and the policy fails closed, or what the request needs could not be read from Redis.',
  [`${PROBLEM_BASE}invalid-request`]: '400: bad input; `errors` lists every rejected field.',
  [`${PROBLEM_BASE}unauthorized`]: '401: the API key is missing, unknown, revoked or expired.',
  [`${PROBLEM_BASE}forbidden`]:
    '403: the API key may not use that policy, or lacks the scope (admin for a reset).',
  [`${PROBLEM_BASE}policy-not-found`]: '404: the key’s tenant has no policy of that name.',
  [`${PROBLEM_BASE}reservation-not-found`]:
    '404 (settle): no such reservation: unknown, expired (it then counts at its estimate), another tenant’s, or of a policy that is gone.',
  [`${PROBLEM_BASE}lease-not-found`]:
    '404 (release): not a lease id, another tenant’s, or of a policy that is gone. A lease released before or expired is no error (`released: false`).',
  [`${PROBLEM_BASE}reservations-disabled`]:
    '409 (settle): the reservation’s policy does not take reservations (any more).',
  [`${PROBLEM_BASE}webhook-endpoint-not-found`]:
    '404 (webhooks): the key’s tenant has no webhook endpoint of that id or name.',
  [`${PROBLEM_BASE}webhook-endpoint-disabled`]:
    '409 (webhooks): the endpoint is disabled and takes no events.',
  [`${PROBLEM_BASE}idempotency-key-conflict`]:
    '409 (webhooks): the idempotency key is in use by a running request, or was used for another event.',
  [`${PROBLEM_BASE}webhook-queue-full`]:
    '429 (webhooks): the endpoint’s FIFO is full; `Retry-After` says when there is room.',
  'about:blank':
    'The status says it all: 404 unknown route, 413 body too large, 415 not JSON, 500 unexpected error, 503 not ready.',
} as const;

const problemType = z.enum(Object.keys(PROBLEM_TYPES) as [string, ...string[]]).meta({
  description: Object.entries(PROBLEM_TYPES)
    .map(([type, when]) => `\`${type}\`: ${when}`)
    .join('\n'),
});

export const problemSchema = z
  .object({
    type: problemType,
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    instance: z.string().meta({ description: 'The request path.' }),
  })
  .meta({ description: 'RFC 9457 problem details.' });

export const invalidRequestProblemSchema = problemSchema.extend({
  errors: z.array(z.object({ field: z.string(), message: z.string() })).meta({
    description: 'Every rejected field (`body` for a body that is not a JSON object or not JSON).',
  }),
});

export const rateLimitedProblemSchema = problemSchema.extend({
  'violated-policies': z.array(z.string()).meta({ description: 'The live rules that denied.' }),
});

export const livenessSchema = z.object({
  status: z.literal('ok'),
  service: z.string(),
  version: z.string(),
});

export const readinessSchema = z.object({
  status: z.literal('ok'),
  checks: z.record(z.string(), z.literal('ok')),
});

/** Same keys, and each assignable to the other (`?: T` and `?: T | undefined` are alike here). */
type Same<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A] extends [keyof B]
      ? [keyof B] extends [keyof A]
        ? true
        : false
      : false
    : false
  : false;

// a compile-time check: each pair must be the same type
const _schemaTypesMatch: [
  Same<z.infer<typeof rateAlgorithm>, Algorithm>,
  Same<z.infer<typeof algorithm>, AnyAlgorithm>,
  Same<z.infer<typeof decisionReason>, DecisionReason>,
  Same<z.infer<typeof ruleResultSchema>, RuleResult>,
  Same<z.infer<typeof checkResultSchema>, CheckResult>,
  Same<z.infer<typeof settledRuleResultSchema>, SettledRuleResult>,
  Same<z.infer<typeof settleResultSchema>, SettleResult>,
  Same<z.infer<typeof releaseResultSchema>, ReleaseResult>,
  Same<z.infer<typeof livenessSchema>, Liveness>,
  Same<z.infer<typeof readinessSchema>, Readiness>,
] = [true, true, true, true, true, true, true, true, true, true];
