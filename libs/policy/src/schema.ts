import {
  AlgorithmInputError,
  identifierHash,
  MAX_RESERVATION_TTL_MS,
  MAX_RULES,
  MIN_RESERVATION_TTL_MS,
  validateAnyRule,
  type AnyRuleSpec,
  type ConcurrencyRule,
  type RuleSpec,
} from '@sluice/algorithms';
import { z } from 'zod';
import type {
  CompiledConcurrencyRule,
  CompiledOverride,
  CompiledPolicy,
  CompiledRule,
  FailMode,
  OverrideMatch,
  PolicyMode,
  TenantStatus,
  UnpublishedTenant,
} from './compiled';
import { PolicyValidationError } from './errors';
import { fieldIssues, idSchema, nameSchema, SLUG_PATTERN, typeError } from './names';

export const MAX_POLICIES = 100;
export const MAX_OVERRIDES = 1000;
export const MAX_TEXT = 500;
export const DEFAULT_REDIS_TIMEOUT_MS = 50;
/** How long a reservation waits for its settle unless the policy says otherwise (10 min). */
export const DEFAULT_RESERVATION_TTL_MS = 600_000;
/** Candidate rules' keys are named `c-<name>` and a rule key's name has at most 64 characters. */
export const CANDIDATE_KEY_PREFIX = 'c-';
const MAX_CANDIDATE_NAME = 64 - CANDIDATE_KEY_PREFIX.length;

type PartialParams<R> = R extends unknown ? Partial<Omit<R, 'algorithm'>> : never;

/**
 * `{ name, algorithm, ...that algorithm's parameters }`, e.g. a token bucket's capacity, or a
 * concurrency rule's `limit` and `leaseTtlMs`.
 */
export type RuleInput = { name: string } & AnyRuleSpec;

export interface OverrideInput {
  id: string;
  /** Default: `prefix` when the identifier ends with `*` (`premium_*`), else `exact`. */
  match?: OverrideMatch;
  /** Exact: any 1..256 bytes. Prefix: the prefix, with or without its trailing `*`. */
  identifier: string;
  /** Rule name → the parameters to replace (merged over the rule's, then validated again). */
  rules: Record<string, PartialParams<AnyRuleSpec>>;
  /** ISO 8601 date-time with a zone (`2026-01-31T00:00:00Z`) or a ms epoch. */
  expiresAt?: string | number;
  reason?: string;
}

export interface PolicyInput {
  id: string;
  name: string;
  description?: string;
  mode?: PolicyMode;
  failMode?: FailMode;
  redisTimeoutMs?: number;
  rules: RuleInput[];
  /** Rate rules only: a concurrency candidate's lease would outlive a denied request. */
  candidateRules?: RuleInput[];
  overrides?: OverrideInput[];
  /** Checks with a cost > 0 return a reservation to settle; `ttlMs` 1 s .. 24 h, default 10 min. */
  reservations?: { ttlMs?: number };
}

export interface TenantConfigInput {
  tenantId: string;
  slug: string;
  status: TenantStatus;
  policies: PolicyInput[];
}

/**
 * Runs the algorithms lib's own validation (so limits live in one place) and reports its
 * complaint at the field it names, below `at`.
 */
function checkRuleSpec(
  value: unknown,
  ctx: z.RefinementCtx,
  at: PropertyKey[],
): AnyRuleSpec | undefined {
  try {
    return validateAnyRule(value, 'rule');
  } catch (error) {
    if (!(error instanceof AlgorithmInputError)) throw error;
    const field = error.field.split('.').slice(1);
    ctx.addIssue({ code: 'custom', path: [...at, ...field], message: error.reason });
    return undefined;
  }
}

/** Keys of `input` that `validated` (the algorithms lib's normalized rule) does not know. */
function unknownParams(
  input: Record<string, unknown>,
  validated: object,
  skip: string[],
): PropertyKey[][] {
  const found: PropertyKey[][] = [];
  for (const [key, value] of Object.entries(input)) {
    if (skip.includes(key)) continue;
    const known: unknown = (validated as Record<string, unknown>)[key];
    if (known === undefined) found.push([key]);
    else if (typeof known === 'object' && known !== null && typeof value === 'object' && value) {
      found.push(
        ...unknownParams(value as Record<string, unknown>, known, []).map((p) => [key, ...p]),
      );
    }
  }
  return found;
}

/** A rule as validated, with its parameters as written (overrides merge over those). */
interface ParsedRule {
  name: string;
  rule: AnyRuleSpec;
  params: Record<string, unknown>;
}

const isRate = (entry: { name: string; rule: AnyRuleSpec }): entry is CompiledRule =>
  entry.rule.algorithm !== 'concurrency';
const isConcurrency = (entry: {
  name: string;
  rule: AnyRuleSpec;
}): entry is CompiledConcurrencyRule => entry.rule.algorithm === 'concurrency';

const ruleInput = z
  .looseObject(
    { name: nameSchema, algorithm: z.string(typeError('must be a string')) },
    typeError('must be a rule object'),
  )
  .transform((input, ctx): ParsedRule => {
    const { name, ...params } = input;
    const rule = checkRuleSpec(params, ctx, []);
    if (!rule) return z.NEVER;
    for (const path of unknownParams(params, rule, ['algorithm'])) {
      ctx.addIssue({ code: 'custom', path, message: `unknown parameter for ${rule.algorithm}` });
    }
    return { name, rule, params };
  });

const EXPIRY =
  'must be an ISO 8601 date-time with a zone (e.g. 2026-01-31T00:00:00Z) or a ms epoch';
const expiry = z.union(
  [
    z.iso.datetime({ offset: true }).transform((iso) => Date.parse(iso)),
    z.number().int({ error: EXPIRY }).min(0, { error: EXPIRY }).max(8.64e15, { error: EXPIRY }),
  ],
  { error: EXPIRY },
);

const overrideInput = z
  .strictObject({
    id: idSchema,
    match: z.enum(['exact', 'prefix'], { error: 'must be exact or prefix' }).optional(),
    identifier: z.string(typeError('must be a string')),
    rules: z.record(
      z.string(),
      z.record(z.string(), z.unknown(), typeError('must be an object of rule parameters')),
      typeError('must be an object: rule name → parameters to replace'),
    ),
    expiresAt: expiry.optional(),
    reason: z
      .string(typeError('must be a string'))
      .max(MAX_TEXT, { error: `must be at most ${MAX_TEXT} characters` })
      .default(''),
  })
  .transform((input, ctx) => {
    const match = input.match ?? (input.identifier.endsWith('*') ? 'prefix' : 'exact');
    const identifier =
      match === 'prefix' && input.identifier.endsWith('*')
        ? input.identifier.slice(0, -1)
        : input.identifier;
    if (match === 'prefix' && identifier.includes('*')) {
      ctx.addIssue({
        code: 'custom',
        path: ['identifier'],
        message: 'a prefix may only end with *; no other wildcard is supported',
      });
    }
    try {
      identifierHash(identifier);
    } catch (error) {
      if (!(error instanceof AlgorithmInputError)) throw error;
      const what = match === 'prefix' ? 'the prefix (without *)' : 'the identifier';
      ctx.addIssue({ code: 'custom', path: ['identifier'], message: `${what} ${error.reason}` });
    }
    if (Object.keys(input.rules).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['rules'], message: 'must change at least one rule' });
    }
    return { ...input, match, identifier };
  });

const policyInput = z
  .strictObject(
    {
      id: idSchema,
      name: nameSchema,
      description: z
        .string(typeError('must be a string'))
        .max(MAX_TEXT, { error: `must be at most ${MAX_TEXT} characters` })
        .default(''),
      mode: z
        .enum(['enforce', 'shadow'], { error: 'must be enforce or shadow' })
        .default('enforce'),
      failMode: z
        .enum(['open', 'closed', 'local'], { error: 'must be open, closed or local' })
        .default('open'),
      redisTimeoutMs: z
        .number(typeError('must be a number'))
        .int({ error: 'must be an integer' })
        .min(1, { error: 'must be at least 1 ms' })
        .max(1000, { error: 'must be at most 1000 ms' })
        .default(DEFAULT_REDIS_TIMEOUT_MS),
      rules: z
        .array(ruleInput, typeError('must be an array of rules'))
        .min(1, { error: 'must have at least one rule' })
        .max(MAX_RULES, { error: `must have at most ${MAX_RULES} rules` }),
      candidateRules: z.array(ruleInput, typeError('must be an array of rules')).default([]),
      overrides: z
        .array(overrideInput, typeError('must be an array of overrides'))
        .max(MAX_OVERRIDES, { error: `must have at most ${MAX_OVERRIDES} overrides` })
        .default([]),
      reservations: z
        .strictObject(
          {
            ttlMs: z
              .number(typeError('must be a number'))
              .int({ error: 'must be an integer' })
              .min(MIN_RESERVATION_TTL_MS, {
                error: `must be at least ${MIN_RESERVATION_TTL_MS} ms`,
              })
              .max(MAX_RESERVATION_TTL_MS, {
                error: `must be at most ${MAX_RESERVATION_TTL_MS} ms (24 h)`,
              })
              .default(DEFAULT_RESERVATION_TTL_MS),
          },
          typeError('must be { ttlMs? }'),
        )
        .optional(),
    },
    typeError('must be a policy object'),
  )
  .transform((input, ctx): CompiledPolicy => {
    const { rules, candidateRules, reservations, overrides: _overrides, ...settings } = input;
    candidateRules.forEach((rule, i) => {
      if (rule.rule.algorithm === 'concurrency') {
        ctx.addIssue({
          code: 'custom',
          path: ['candidateRules', i, 'algorithm'],
          message:
            'a concurrency rule cannot be a candidate (its lease would outlive a denied request)',
        });
      }
    });
    if (reservations && !rules.some(isRate)) {
      ctx.addIssue({
        code: 'custom',
        path: ['reservations'],
        message: 'reservations need a rule that counts cost (concurrency rules ignore it)',
      });
    }
    if (rules.length + candidateRules.length > MAX_RULES) {
      ctx.addIssue({
        code: 'custom',
        path: ['candidateRules'],
        message: `rules and candidate rules together must be at most ${MAX_RULES} (one composite call)`,
      });
    }
    const byName = new Map<string, ParsedRule>();
    const keyNames = new Map<string, string>();
    const named = [
      ...rules.map((rule, i) => ({ rule, at: ['rules', i], keyName: rule.name })),
      ...candidateRules.map((rule, i) => ({
        rule,
        at: ['candidateRules', i],
        keyName: CANDIDATE_KEY_PREFIX + rule.name,
      })),
    ];
    for (const { rule, at, keyName } of named) {
      const path = [...at, 'name'];
      if (byName.has(rule.name)) {
        ctx.addIssue({ code: 'custom', path, message: `duplicate rule name ${rule.name}` });
      } else if (at[0] === 'candidateRules' && rule.name.length > MAX_CANDIDATE_NAME) {
        ctx.addIssue({
          code: 'custom',
          path,
          message: `candidate rule names have at most ${MAX_CANDIDATE_NAME} characters`,
        });
      } else if (keyNames.has(keyName)) {
        ctx.addIssue({
          code: 'custom',
          path,
          message: `its counter key ${keyName} is also rule ${keyNames.get(keyName)}'s: rename one`,
        });
      }
      if (!byName.has(rule.name)) byName.set(rule.name, rule);
      if (!keyNames.has(keyName)) keyNames.set(keyName, rule.name);
    }
    const targets = new Set<string>();
    const overrides = input.overrides.map((override, i): CompiledOverride => {
      const target = `${override.match}:${override.identifier}`;
      if (targets.has(target)) {
        ctx.addIssue({
          code: 'custom',
          path: ['overrides', i, 'identifier'],
          message: `another override already matches ${override.match} ${JSON.stringify(override.identifier)}`,
        });
      }
      targets.add(target);
      const merged: Record<string, RuleSpec> = {};
      const concurrency: Record<string, ConcurrencyRule> = {};
      for (const [name, patch] of Object.entries(override.rules)) {
        const at = ['overrides', i, 'rules', name];
        const base = byName.get(name);
        if (!base) {
          ctx.addIssue({
            code: 'custom',
            path: at,
            message: `the policy has no rule named ${name}`,
          });
          continue;
        }
        if ('algorithm' in patch || 'name' in patch) {
          ctx.addIssue({
            code: 'custom',
            path: at,
            message: 'an override changes parameters only, not the algorithm or the name',
          });
          continue;
        }
        const rule = checkRuleSpec({ ...base.params, ...patch }, ctx, at);
        if (!rule) continue;
        for (const path of unknownParams(patch, rule, [])) {
          ctx.addIssue({
            code: 'custom',
            path: [...at, ...path],
            message: `unknown parameter for ${rule.algorithm}`,
          });
        }
        if (rule.algorithm === 'concurrency') concurrency[name] = rule;
        else merged[name] = rule;
      }
      return {
        id: override.id,
        match: override.match,
        identifier: override.identifier,
        rules: merged,
        ...(Object.keys(concurrency).length > 0 && { concurrencyRules: concurrency }),
        ...(override.expiresAt === undefined ? {} : { expiresAt: override.expiresAt }),
        reason: override.reason,
      };
    });
    const compiled = rules.map(({ name, rule }) => ({ name, rule }));
    const concurrencyRules = compiled.filter(isConcurrency);
    return {
      ...settings,
      rules: compiled.filter(isRate),
      ...(concurrencyRules.length > 0 && { concurrencyRules }),
      candidateRules: candidateRules.map(({ name, rule }) => ({ name, rule })).filter(isRate),
      overrides,
      ...(reservations && { reservations }),
    };
  });

const tenantConfigInput = z
  .strictObject(
    {
      tenantId: idSchema,
      slug: z.string(typeError('must be a string')).regex(SLUG_PATTERN, {
        error: 'must be 1 to 63 lowercase letters, digits or inner hyphens',
      }),
      status: z.enum(['active', 'suspended'], { error: 'must be active or suspended' }),
      policies: z
        .array(policyInput, typeError('must be an array of policies'))
        .max(MAX_POLICIES, { error: `must have at most ${MAX_POLICIES} policies` }),
    },
    typeError('must be a tenant configuration object'),
  )
  .superRefine((tenant, ctx) => {
    const unique = (label: string, values: [string, PropertyKey[]][]) => {
      const seen = new Set<string>();
      for (const [value, path] of values) {
        if (seen.has(value))
          ctx.addIssue({ code: 'custom', path, message: `duplicate ${label} ${value}` });
        seen.add(value);
      }
    };
    unique(
      'policy name',
      tenant.policies.map((policy, i) => [policy.name, ['policies', i, 'name']]),
    );
    unique(
      'policy id',
      tenant.policies.map((policy, i) => [policy.id, ['policies', i, 'id']]),
    );
    unique(
      'override id',
      tenant.policies.flatMap((policy, i) =>
        policy.overrides.map((o, j): [string, PropertyKey[]] => [
          o.id,
          ['policies', i, 'overrides', j, 'id'],
        ]),
      ),
    );
  });

/**
 * Validates a tenant's configuration and compiles it into what the data plane reads: rules
 * normalized by the algorithms lib, overrides merged and validated per rule, defaults filled in.
 * Throws `PolicyValidationError` listing every field it rejects.
 */
export function compileTenant(
  input: unknown,
  version: number | 'next' = 'next',
): UnpublishedTenant {
  if (version !== 'next' && (!Number.isSafeInteger(version) || version < 1)) {
    throw new PolicyValidationError([
      { path: 'version', message: `must be an integer >= 1 or 'next', got ${String(version)}` },
    ]);
  }
  const parsed = tenantConfigInput.safeParse(input);
  if (!parsed.success) throw new PolicyValidationError(fieldIssues(parsed.error));
  const { policies, ...tenant } = parsed.data;
  return {
    ...tenant,
    version,
    policies: Object.fromEntries(policies.map((policy) => [policy.name, policy])),
  };
}
