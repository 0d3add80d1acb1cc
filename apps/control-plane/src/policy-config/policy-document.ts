import { newId } from '@sluice/db';
import { MAX_OVERRIDES, MAX_POLICIES, NAME_PATTERN, type RuleInput } from '@sluice/policy';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml, stringify as stringifyYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';
import type { FieldIssue } from '../graphql/app-error';
import { candidatePatch } from './change-candidates';
import type {
  ChangeRow,
  OverrideRow,
  PolicyRow,
  RuleParams,
  RuleRow,
  TenantState,
} from './tenant-state';
import { toRuleInput } from './tenant-state';

/** Names the document's shape, so a later format can be told apart. */
export const POLICY_DOCUMENT_FORMAT = 'sluice.dev/policies/v1';

export type DocumentFormat = 'yaml' | 'json';

/** A tenant's own policy, as written in a document. */
export interface DocumentPolicy {
  name: string;
  description?: string;
  mode?: 'enforce' | 'shadow';
  failMode?: 'open' | 'closed' | 'local';
  redisTimeoutMs?: number;
  reservations?: { ttlMs: number };
  rules: RuleInput[];
  /** `replaces`: the live rule a candidate proposes new values for. */
  candidateRules?: (RuleInput & { replaces?: string })[];
}

/** Parameters the tenant changed in one of its plan's policies (within the plan's bounds). */
export interface DocumentChange {
  policy: string;
  rules: Record<string, RuleParams>;
  /** The tenant's candidates for the policy: each `replaces` one of its rules. */
  candidateRules?: (RuleInput & { replaces: string })[];
}

export interface DocumentOverride {
  policy: string;
  /** An exact identifier, or a prefix ending with `*` (`premium_*`). */
  identifier: string;
  rules: Record<string, RuleParams>;
  /** RFC 3339. */
  expiresAt?: string;
  reason?: string;
}

/**
 * What a tenant configures itself, which export writes, import reads and a version keeps: its own
 * policies, its changes to its plan's policies and its overrides. The plan's templates are the
 * operator's and are not part of it.
 */
export interface PolicyDocument {
  format: typeof POLICY_DOCUMENT_FORMAT;
  policies: DocumentPolicy[];
  changes: DocumentChange[];
  overrides: DocumentOverride[];
}

const text = (max: number) =>
  z.string({ error: 'must be a string' }).max(max, { error: `must be at most ${max} characters` });
const policyName = z
  .string({ error: 'must be a string' })
  .regex(NAME_PATTERN, { error: 'must be 1 to 63 lowercase letters, digits, - or _' });
const params = z.record(z.string(), z.unknown(), { error: 'must be an object of parameters' });
const rulesByName = z.record(z.string(), params, {
  error: 'must be an object: rule name → parameters',
});
const rule = z.looseObject(
  { name: z.string({ error: 'must be a string' }), algorithm: z.string({ error: 'is required' }) },
  { error: 'must be a rule object' },
);

const documentSchema = z.strictObject(
  {
    format: z.literal(POLICY_DOCUMENT_FORMAT, {
      error: `must be ${POLICY_DOCUMENT_FORMAT}`,
    }),
    policies: z
      .array(
        z.strictObject(
          {
            name: policyName,
            description: text(500).optional(),
            mode: z.enum(['enforce', 'shadow'], { error: 'must be enforce or shadow' }).optional(),
            failMode: z
              .enum(['open', 'closed', 'local'], { error: 'must be open, closed or local' })
              .optional(),
            redisTimeoutMs: z.number({ error: 'must be a number' }).optional(),
            reservations: z
              .strictObject({ ttlMs: z.number({ error: 'must be a number' }) })
              .optional(),
            rules: z.array(rule, { error: 'must be an array of rules' }),
            candidateRules: z.array(rule, { error: 'must be an array of rules' }).optional(),
          },
          { error: 'must be a policy object' },
        ),
        { error: 'must be an array of policies' },
      )
      .max(MAX_POLICIES, { error: `must have at most ${MAX_POLICIES} policies` })
      .default([]),
    changes: z
      .array(
        z.strictObject({
          policy: policyName,
          rules: rulesByName,
          candidateRules: z.array(rule, { error: 'must be an array of rules' }).optional(),
        }),
        { error: 'must be an array of changes' },
      )
      .default([]),
    overrides: z
      .array(
        z.strictObject({
          policy: policyName,
          identifier: z.string({ error: 'must be a string' }).min(1, { error: 'is required' }),
          rules: rulesByName,
          expiresAt: z.iso
            .datetime({ offset: true, error: 'must be an RFC 3339 date-time with an offset' })
            .optional(),
          reason: text(500).optional(),
        }),
        { error: 'must be an array of overrides' },
      )
      .max(MAX_OVERRIDES * MAX_POLICIES, { error: 'has too many overrides' })
      .default([]),
  },
  { error: 'must be a policy document object' },
);

/** Reads a YAML or JSON document; field issues are named from `document`. */
export function parsePolicyDocument(
  source: string,
  format: DocumentFormat,
): { document: PolicyDocument } | { issues: FieldIssue[] } {
  let raw: unknown;
  try {
    raw = format === 'json' ? JSON.parse(source) : parseYaml(source, { maxAliasCount: 0 });
  } catch (error) {
    const where =
      error instanceof YAMLParseError && error.linePos
        ? ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}`
        : '';
    return {
      issues: [
        {
          field: 'document',
          message: `is not valid ${format.toUpperCase()}${where}: ${(error as Error).message.split('\n')[0] ?? ''}`,
        },
      ],
    };
  }
  const parsed = documentSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      issues: parsed.error.issues.map((issue) => ({
        field: ['document', ...issue.path.map(String)].join('.'),
        message:
          issue.code === 'unrecognized_keys'
            ? `unknown field ${issue.keys.join(', ')}`
            : issue.message,
      })),
    };
  }
  return { document: parsed.data as PolicyDocument };
}

export function serializePolicyDocument(document: PolicyDocument, format: DocumentFormat): string {
  return format === 'json'
    ? `${JSON.stringify(document, null, 2)}\n`
    : stringifyYaml(document, { lineWidth: 0 });
}

const ruleParams = (rule: RuleRow): RuleInput =>
  toRuleInput({ name: rule.name, algorithm: rule.algorithm, params: rule.params });

/** The tenant's own configuration as a document. */
export function toPolicyDocument(state: TenantState): PolicyDocument {
  const policyNames = new Map(
    [...state.planPolicies, ...state.ownPolicies].map((policy) => [policy.id, policy.name]),
  );
  return {
    format: POLICY_DOCUMENT_FORMAT,
    policies: state.ownPolicies.map((policy) => {
      const candidates = policy.rules.filter((r) => r.candidate);
      return {
        name: policy.name,
        ...(policy.description && { description: policy.description }),
        mode: policy.mode,
        failMode: policy.failMode,
        redisTimeoutMs: policy.redisTimeoutMs,
        ...(policy.reservationTtlMs !== null && {
          reservations: { ttlMs: policy.reservationTtlMs },
        }),
        rules: policy.rules.filter((r) => !r.candidate).map(ruleParams),
        ...(candidates.length > 0 && {
          candidateRules: candidates.map((r) => ({
            ...ruleParams(r),
            ...(r.replaces !== null && { replaces: r.replaces }),
          })),
        }),
      };
    }),
    changes: state.changes
      .filter((change) => policyNames.has(change.basePolicyId))
      .map((change) => ({
        policy: policyNames.get(change.basePolicyId) ?? '',
        rules: change.rules,
        ...(change.candidates.length > 0 && {
          candidateRules: change.candidates.map((r) => ({
            ...ruleParams(r),
            replaces: r.replaces ?? '',
          })),
        }),
      })),
    overrides: state.overrides
      .filter((override) => policyNames.has(override.policyId))
      .map((override) => ({
        policy: policyNames.get(override.policyId) ?? '',
        identifier: override.match === 'prefix' ? `${override.identifier}*` : override.identifier,
        rules: override.rules,
        ...(override.expiresAt && { expiresAt: override.expiresAt.toISOString() }),
        ...(override.reason && { reason: override.reason }),
      })),
  };
}

function toRuleRows(rules: readonly RuleInput[], candidate: boolean): RuleRow[] {
  return rules.map((input) => {
    const { name, algorithm, ...rest } = input as RuleInput & { replaces?: unknown };
    // a live rule's `replaces` (or one that is no name) stays a parameter, which validation refuses
    const { replaces, ...params } = rest;
    const linked = candidate && typeof replaces === 'string';
    return {
      name,
      algorithm,
      params: (linked ? params : rest) as RuleParams,
      candidate,
      replaces: linked ? replaces : null,
      tenantBounds: null,
    };
  });
}

/**
 * The state a document describes on top of the tenant's plan. Existing rows keep their ids where
 * the document names the same thing (a policy by name, a change by policy, an override by policy
 * and identifier), so counters in Redis, which are keyed by policy id, carry on. Names that the
 * document uses but neither the plan nor the document defines are reported as issues.
 */
export function applyPolicyDocument(
  state: TenantState,
  document: PolicyDocument,
): { state: TenantState } | { issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const planByName = new Map(state.planPolicies.map((policy) => [policy.name, policy]));
  const ownByName = new Map(state.ownPolicies.map((policy) => [policy.name, policy]));
  const seen = new Set<string>();
  const ownPolicies = document.policies.map((policy, i): PolicyRow => {
    if (planByName.has(policy.name)) {
      issues.push({
        field: `document.policies.${i}.name`,
        message: `the plan already has a policy named ${policy.name}: change it under changes`,
      });
    } else if (seen.has(policy.name)) {
      issues.push({ field: `document.policies.${i}.name`, message: 'is a duplicate' });
    }
    seen.add(policy.name);
    return {
      id: ownByName.get(policy.name)?.id ?? newId('policy'),
      name: policy.name,
      description: policy.description ?? '',
      mode: policy.mode ?? 'enforce',
      failMode: policy.failMode ?? 'open',
      redisTimeoutMs: policy.redisTimeoutMs ?? 50,
      reservationTtlMs: policy.reservations?.ttlMs ?? null,
      rules: [...toRuleRows(policy.rules, false), ...toRuleRows(policy.candidateRules ?? [], true)],
    };
  });
  const newOwnByName = new Map(ownPolicies.map((policy) => [policy.name, policy]));
  const changeIds = new Map(state.changes.map((change) => [change.basePolicyId, change.id]));
  const changed = new Set<string>();
  const changes: ChangeRow[] = [];
  document.changes.forEach((change, i) => {
    const base = planByName.get(change.policy);
    if (!base) {
      issues.push({
        field: `document.changes.${i}.policy`,
        message: `the plan has no policy named ${change.policy}`,
      });
      return;
    }
    if (changed.has(base.id)) {
      issues.push({ field: `document.changes.${i}.policy`, message: 'is changed twice' });
      return;
    }
    changed.add(base.id);
    changes.push({
      id: changeIds.get(base.id) ?? newId('policy'),
      basePolicyId: base.id,
      rules: change.rules,
      // stored as a change's values are: what each candidate proposes anew
      candidates: toRuleRows(change.candidateRules ?? [], true).map((c) => candidatePatch(base, c)),
    });
  });
  const overrideIds = new Map(
    state.overrides.map((o) => [`${o.policyId}\n${o.match}\n${o.identifier}`, o.id]),
  );
  const overrides: OverrideRow[] = [];
  document.overrides.forEach((override, i) => {
    const policy = planByName.get(override.policy) ?? newOwnByName.get(override.policy);
    if (!policy) {
      issues.push({
        field: `document.overrides.${i}.policy`,
        message: `no policy named ${override.policy}`,
      });
      return;
    }
    const match = override.identifier.endsWith('*') ? 'prefix' : 'exact';
    const identifier = match === 'prefix' ? override.identifier.slice(0, -1) : override.identifier;
    overrides.push({
      id: overrideIds.get(`${policy.id}\n${match}\n${identifier}`) ?? newId('override'),
      policyId: policy.id,
      match,
      identifier,
      rules: override.rules,
      reason: override.reason ?? '',
      expiresAt: override.expiresAt === undefined ? null : new Date(override.expiresAt),
    });
  });
  if (issues.length > 0) return { issues };
  return { state: { ...state, ownPolicies, changes, overrides } };
}

export type DocumentChangeKind = 'added' | 'removed' | 'changed';

/** One difference between two documents, at the level of a policy, a change or an override. */
export interface DocumentDiffEntry {
  /** e.g. `policies.reports`, `changes.api`, `overrides.api.premium_*`. */
  path: string;
  kind: DocumentChangeKind;
  before?: unknown;
  after?: unknown;
}

/** What importing `after` over `before` would add, remove and change. */
export function diffPolicyDocuments(
  before: PolicyDocument,
  after: PolicyDocument,
): DocumentDiffEntry[] {
  const keyed = (document: PolicyDocument) =>
    new Map<string, unknown>([
      ...document.policies.map((p): [string, unknown] => [`policies.${p.name}`, p]),
      ...document.changes.map((c): [string, unknown] => [
        `changes.${c.policy}`,
        c.candidateRules?.length ? { rules: c.rules, candidateRules: c.candidateRules } : c.rules,
      ]),
      ...document.overrides.map((o): [string, unknown] => [
        `overrides.${o.policy}.${o.identifier}`,
        o,
      ]),
    ]);
  const old = keyed(normalized(before));
  const next = keyed(normalized(after));
  const entries: DocumentDiffEntry[] = [];
  for (const [path, value] of old) {
    if (!next.has(path)) entries.push({ path, kind: 'removed', before: value });
    else if (!isDeepStrictEqual(value, next.get(path))) {
      entries.push({ path, kind: 'changed', before: value, after: next.get(path) });
    }
  }
  for (const [path, value] of next) {
    if (!old.has(path)) entries.push({ path, kind: 'added', after: value });
  }
  return entries;
}

/** Defaults written out, so that leaving a default out is no difference. */
function normalized(document: PolicyDocument): PolicyDocument {
  return {
    ...document,
    policies: document.policies.map((policy) => ({
      ...policy,
      description: policy.description ?? '',
      mode: policy.mode ?? 'enforce',
      failMode: policy.failMode ?? 'open',
      redisTimeoutMs: policy.redisTimeoutMs ?? 50,
      candidateRules: policy.candidateRules ?? [],
    })),
    overrides: document.overrides.map((override) => ({
      ...override,
      reason: override.reason ?? '',
      ...(override.expiresAt && { expiresAt: new Date(override.expiresAt).toISOString() }),
    })),
  };
}
