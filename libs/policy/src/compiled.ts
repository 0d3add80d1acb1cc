import {
  AlgorithmInputError,
  MAX_RESERVATION_TTL_MS,
  MIN_RESERVATION_TTL_MS,
  validateAnyRule,
  validateRule,
  type ConcurrencyRule,
  type RuleSpec,
} from '@sluice/algorithms';
import { z } from 'zod';
import { idSchema, nameSchema, SLUG_PATTERN } from './names';

export type TenantStatus = 'active' | 'suspended';
/** `enforce` denies; `shadow` decides and counts but always allows (reporting `shadowDenied`). */
export type PolicyMode = 'enforce' | 'shadow';
/** What a check answers when Redis errors or exceeds the policy's timeout. */
export type FailMode = 'open' | 'closed' | 'local';
export type OverrideMatch = 'exact' | 'prefix';

/** A validated rule: its name (unique in the policy) and its algorithm's parameters. */
export interface CompiledRule {
  name: string;
  rule: RuleSpec;
}

/** A validated concurrency rule (at most `limit` leases in flight), named like the others. */
export interface CompiledConcurrencyRule {
  name: string;
  rule: ConcurrencyRule;
}

/** Checks with a cost > 0 write a reservation record that `settle` corrects to the actual cost. */
export interface ReservationSettings {
  /** 1 s .. 24 h: how long a reservation waits for its settle; unsettled, the estimate stands. */
  ttlMs: number;
}

/** A validated override: `rules` holds the complete merged spec of every rule it changes. */
export interface CompiledOverride {
  id: string;
  match: OverrideMatch;
  /** The identifier itself (exact) or the prefix without its `*` (prefix). */
  identifier: string;
  rules: Record<string, RuleSpec>;
  /** The merged spec of every concurrency rule it changes; absent when it changes none. */
  concurrencyRules?: Record<string, ConcurrencyRule>;
  /** Ms epoch; from then on the override is ignored. */
  expiresAt?: number;
  reason: string;
}

export interface CompiledPolicy {
  id: string;
  name: string;
  description: string;
  mode: PolicyMode;
  failMode: FailMode;
  /** 1..1000 ms: longer and the check answers with the fail mode. */
  redisTimeoutMs: number;
  /**
   * The live rate rules, decided all-or-nothing with `concurrencyRules` (1..MAX_RULES rules in
   * all; empty when the policy has concurrency rules only).
   */
  rules: CompiledRule[];
  /**
   * Live concurrency rules, in the same all-or-nothing group: an allowed check (cost > 0, not a
   * dry run) takes one lease of each. Absent when the policy has none. Kept apart from `rules` so
   * that code switching over the rate rules (`RuleSpec`) stays exhaustive.
   */
  concurrencyRules?: CompiledConcurrencyRule[];
  /** Evaluated beside the live rules in their own group; never deny (their keys use `c-<name>`). */
  candidateRules: CompiledRule[];
  overrides: CompiledOverride[];
  /** Present: checks with a cost > 0 return a reservation to settle. Absent: none. */
  reservations?: ReservationSettings;
}

/** A tenant's effective policies as the data plane reads them: everything already validated. */
export interface CompiledTenant {
  tenantId: string;
  slug: string;
  status: TenantStatus;
  /** Integer >= 1; a tenant's version only grows. */
  version: number;
  /** Ms epoch (Redis clock) of the publish that stored this version. */
  publishedAt: number;
  policies: Record<string, CompiledPolicy>;
}

/** What `compileTenant` returns and `publishTenant` stores: `next` = stored version + 1. */
export interface UnpublishedTenant extends Omit<CompiledTenant, 'version' | 'publishedAt'> {
  version: number | 'next';
}

/** Rules read back from Redis are checked again by the algorithms lib (defaults filled in). */
const storedRuleSpec = z.unknown().transform((value, ctx): RuleSpec => {
  try {
    return validateRule(value, 'rule');
  } catch (error) {
    if (!(error instanceof AlgorithmInputError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message });
    return z.NEVER;
  }
});

const storedConcurrencySpec = z.unknown().transform((value, ctx): ConcurrencyRule => {
  try {
    const rule = validateAnyRule(value, 'rule');
    if (rule.algorithm === 'concurrency') return rule;
    ctx.addIssue({
      code: 'custom',
      message: `rule.algorithm: ${rule.algorithm} is no concurrency rule`,
    });
  } catch (error) {
    if (!(error instanceof AlgorithmInputError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message });
  }
  return z.NEVER;
});

const compiledRule = z.object({ name: nameSchema, rule: storedRuleSpec });

const compiledPolicy = z
  .object({
    id: idSchema,
    name: nameSchema,
    description: z.string(),
    mode: z.enum(['enforce', 'shadow']),
    failMode: z.enum(['open', 'closed', 'local']),
    redisTimeoutMs: z.number().int().min(1).max(1000),
    rules: z.array(compiledRule),
    concurrencyRules: z
      .array(z.object({ name: nameSchema, rule: storedConcurrencySpec }))
      .min(1)
      .optional(),
    candidateRules: z.array(compiledRule),
    overrides: z.array(
      z.object({
        id: idSchema,
        match: z.enum(['exact', 'prefix']),
        identifier: z.string().min(1),
        rules: z.record(nameSchema, storedRuleSpec),
        concurrencyRules: z.record(nameSchema, storedConcurrencySpec).optional(),
        expiresAt: z.number().int().nonnegative().optional(),
        reason: z.string(),
      }),
    ),
    reservations: z
      .object({ ttlMs: z.number().int().min(MIN_RESERVATION_TTL_MS).max(MAX_RESERVATION_TTL_MS) })
      .optional(),
  })
  .refine((policy) => policy.rules.length + (policy.concurrencyRules?.length ?? 0) > 0, {
    error: 'a policy needs at least one live rule',
    path: ['rules'],
  });

/** The `config` field of a tenant hash (everything but the version, which has its own field). */
export const storedTenantConfig = z.object({
  tenantId: idSchema,
  slug: z.string().regex(SLUG_PATTERN),
  status: z.enum(['active', 'suspended']),
  policies: z.record(nameSchema, compiledPolicy),
});
