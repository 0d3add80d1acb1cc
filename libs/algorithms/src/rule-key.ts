import { createHash } from 'node:crypto';
import { AlgorithmInputError } from './errors';
import type { AnyRuleSpec } from './rule-spec';

export const MAX_IDENTIFIER_BYTES = 256;
/** 22 base64url characters = 132 bits of SHA-256. */
const ID_HASH_LENGTH = 22;
const PREFIX = /^[A-Za-z0-9_.:-]{0,64}$/;
/** No `:` either, so `<rule>` and the `:sum` suffix of a sliding log cannot collide. */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** A name, or an owner and a name (`<tenantId>.<policyId>`): `.` is in neither, so no two collide. */
const SCOPE = /^[A-Za-z0-9_-]{1,64}(?:\.[A-Za-z0-9_-]{1,64})?$/;

export interface RuleKeyParts {
  /** Deployment/tenant namespace, e.g. `sluice:`; `[A-Za-z0-9_.:-]{0,64}`. */
  prefix: string;
  /**
   * What is limited, e.g. `api`, or qualified by its owner, e.g. `tnt_1.pol_2` (the engine's
   * `<tenantId>.<policyId>`): `[A-Za-z0-9_-]{1,64}`, optionally `.` and another such name.
   */
  scope: string;
  /** Who is limited: any 1..256 bytes (a string counts as UTF-8). */
  identifier: string | Uint8Array;
  /** Which rule of the policy; `[A-Za-z0-9_-]{1,64}`. */
  rule: string;
  /** The rule's spec, as a rule set keys it: then the rule part is `ruleStateName(rule, state)`. */
  state?: AnyRuleSpec;
}

/** Fixed-length hash of the identifier's bytes: keys stay bounded and cannot carry braces. */
export function identifierHash(identifier: string | Uint8Array, field = 'identifier'): string {
  const bytes = typeof identifier === 'string' ? Buffer.from(identifier, 'utf8') : identifier;
  if (!(bytes instanceof Uint8Array) || bytes.length < 1 || bytes.length > MAX_IDENTIFIER_BYTES) {
    const size = bytes instanceof Uint8Array ? `${bytes.length} bytes` : typeof identifier;
    throw new AlgorithmInputError(field, `must be 1 to ${MAX_IDENTIFIER_BYTES} bytes, got ${size}`);
  }
  return createHash('sha256').update(bytes).digest('base64url').slice(0, ID_HASH_LENGTH);
}

/**
 * `<prefix>{<scope>:<idHash>}:<rule>` (`:<rule>.<stateTag>` with `state`): every rule of one scope
 * and identifier shares a slot.
 */
export function ruleKey(parts: RuleKeyParts): string {
  checkKeyScope(parts.prefix, parts.scope);
  checkRuleName(parts.rule);
  const rule = parts.state ? ruleStateName(parts.rule, parts.state) : parts.rule;
  return formatRuleKey(parts.prefix, parts.scope, identifierHash(parts.identifier), rule);
}

export function checkKeyScope(prefix: unknown, scope: unknown): void {
  checkName('prefix', prefix, PREFIX);
  checkName('scope', scope, SCOPE);
}

export function checkRuleName(rule: unknown, field = 'rule'): void {
  checkName(field, rule, NAME);
}

/** The key of already validated parts (see `ruleKey`). */
export function formatRuleKey(prefix: string, scope: string, idHash: string, rule: string): string {
  return `${prefix}{${scope}:${idHash}}:${rule}`;
}

/**
 * What a rule's stored state means: its algorithm and, for the window algorithms, the window.
 * It is part of the rule's keys (`ruleStateName`), so a rule whose tag changes starts from fresh
 * keys rather than reading another algorithm's state (a WRONGTYPE, a missing field); every other
 * edit (a limit, a capacity, a rate) keeps the counters.
 */
export function ruleStateTag(rule: AnyRuleSpec): string {
  switch (rule.algorithm) {
    case 'token_bucket':
      return 'tb';
    case 'leaky_bucket':
      return 'lb';
    case 'gcra':
      return 'gcra';
    case 'concurrency':
      return 'cc';
    case 'fixed_window':
      return rule.calendar ? `fw-${rule.calendar.unit}` : `fw-${rule.windowMs}`;
    case 'sliding_window_log':
      return `swl-${rule.windowMs}`;
    case 'sliding_window_counter':
      return `swc-${rule.windowMs}`;
  }
}

/**
 * The rule part of a rule set's keys: `<name>.<stateTag>` (`.` is in no name, so no two rules'
 * keys collide, nor one with a reservation's `r:<nonce>`).
 */
export function ruleStateName(name: string, rule: AnyRuleSpec): string {
  return `${name}.${ruleStateTag(rule)}`;
}

/** The part of a key Redis Cluster hashes: the first non-empty `{...}`, else the whole key. */
export function hashSlotPart(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

function checkName(field: string, value: unknown, pattern: RegExp): void {
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new AlgorithmInputError(
      field,
      `must match ${pattern.source}, got ${JSON.stringify(value)}`,
    );
  }
}
