import type { Algorithm } from '@sluice/algorithms';
import {
  PROBLEM_BASE,
  type CheckResult,
  type DecisionReason,
  type RuleResult,
} from '@sluice/engine';
import type { Liveness, Readiness } from '@sluice/nest-kit';
import { z } from 'zod';

/**
 * The answers' schemas, for the OpenAPI document only (answers are built by the engine). The
 * assertions at the end fail to compile when they and the engine's types drift apart.
 */

const algorithm = z.enum([
  'token_bucket',
  'leaky_bucket',
  'fixed_window',
  'sliding_window_log',
  'sliding_window_counter',
  'gcra',
]);

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
  quota: z.number().meta({ description: 'Units per window, as `RateLimit-Policy` states it.' }),
  windowMs: z.number().meta({ description: 'The window of `quota` in ms.' }),
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
      'One per live rule, in policy order; empty for suspended, fail-open and fail-closed.',
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
  Same<z.infer<typeof algorithm>, Algorithm>,
  Same<z.infer<typeof decisionReason>, DecisionReason>,
  Same<z.infer<typeof ruleResultSchema>, RuleResult>,
  Same<z.infer<typeof checkResultSchema>, CheckResult>,
  Same<z.infer<typeof livenessSchema>, Liveness>,
  Same<z.infer<typeof readinessSchema>, Readiness>,
] = [true, true, true, true, true, true];
