import type { SettledRule, SettleResult } from './decision';
import { validateNonce } from './ids';
import {
  preparedRuleKey,
  preparedSet,
  reservationKey,
  resolveIdHash,
  type IdentifierRef,
  type PreparedRule,
  type PreparedRuleSet,
} from './rule-set';
import { AlgorithmInputError } from './errors';
import { hashSlotPart } from './rule-key';
import { replyDecision, ruleKeys, timeArg } from './script-args';
import { runScript, type RedisLike } from './scripts';
import { MAX_COST, validateInteger, validateKey, validateNow } from './validate';

/** Reply of the settle script when the record is missing. */
const NOT_FOUND = 0;
const SETTLED_BEFORE = 2;
/** Reply integers per rule: applied, charged, then a decision's six. */
const PER_RULE = 8;

/** The rules a settle looks at: those that count cost (concurrency rules are released). */
export function settleableRules(set: PreparedRuleSet): PreparedRule[] {
  return set.rules.filter((rule) => rule.rule.algorithm !== 'concurrency');
}

/** The keys of a set's rules for one identifier hash, in rule order. */
function keysOf(set: PreparedRuleSet, idHash: string, rules: readonly PreparedRule[]): string[] {
  return rules.flatMap((rule) => ruleKeys(rule.rule, preparedRuleKey(set, idHash, rule)));
}

/**
 * Settles the reservation `nonce` once: `actualCost - estimate` goes to every rule it charged
 * (an overrun as debt, a refund only where the charge still is; see docs/algorithms.md) in one
 * atomic single-slot call. `identifier` may be only its hash, as a reservation id carries it
 * (`parseReservationId`). A second settle changes nothing (`alreadySettled`, with the first
 * settle's actual cost); `found: false` once the record is gone (unknown, or expired: the
 * estimate stands).
 */
export async function settleReservation(
  redis: RedisLike,
  set: PreparedRuleSet,
  identifier: IdentifierRef,
  nonce: string,
  actualCost: number,
  options: { now?: number } = {},
): Promise<SettleResult> {
  const idHash = resolveIdHash(identifier);
  const key = reservationKey(preparedSet(set), idHash, nonce);
  const actual = validateInteger('actualCost', actualCost, 0, MAX_COST);
  const nowUs = validateNow(options.now);
  const rules = settleableRules(set);
  const reply = await runScript(
    redis,
    'settle_reservation',
    [key, ...keysOf(set, idHash, rules)],
    [
      timeArg(nowUs),
      String(actual),
      String(rules.length),
      ...rules.flatMap((rule) => [rule.name, rule.rule.algorithm]),
    ],
  );
  const [status, estimate = 0, settledCost = 0] = reply;
  if (status === NOT_FOUND) return { found: false };
  const settled = rules.flatMap((rule, i): SettledRule[] => {
    const offset = 3 + i * PER_RULE;
    if (reply[offset] !== 1) return [];
    return [
      {
        ...replyDecision(reply, offset + 2),
        name: rule.name,
        candidate: rule.candidate,
        charged: reply[offset + 1] ?? 0,
      },
    ];
  });
  return {
    found: true,
    alreadySettled: status === SETTLED_BEFORE,
    estimate,
    actualCost: settledCost,
    rules: settled,
  };
}

/**
 * Releases the lease `nonce` from every concurrency rule of the set, in one single-slot call.
 * `released: false` when it was not held any more (released before, or expired): harmless.
 */
export async function releaseLease(
  redis: RedisLike,
  set: PreparedRuleSet,
  identifier: IdentifierRef,
  nonce: string,
  options: { now?: number } = {},
): Promise<{ released: boolean }> {
  const idHash = resolveIdHash(identifier);
  const rules = preparedSet(set).rules.filter((rule) => rule.rule.algorithm === 'concurrency');
  return releaseLeaseKeys(redis, keysOf(set, idHash, rules), nonce, options);
}

/**
 * `releaseLease` by the concurrency rules' keys, for leases taken with `concurrency` or
 * `checkRules` (the keys share one hash tag); no keys, no lease.
 */
export async function releaseLeaseKeys(
  redis: RedisLike,
  keys: readonly string[],
  nonce: string,
  options: { now?: number } = {},
): Promise<{ released: boolean }> {
  const lease = validateNonce(nonce);
  const nowUs = validateNow(options.now);
  keys.forEach((key, i) => validateKey(key, `keys[${i}]`));
  if (keys.some((key) => hashSlotPart(key) !== hashSlotPart(keys[0] ?? ''))) {
    throw new AlgorithmInputError('keys', 'all keys of one release must share one {hash tag}');
  }
  if (keys.length === 0) return { released: false };
  const [released] = await runScript(redis, 'release_lease', keys, [timeArg(nowUs), lease]);
  return { released: released === 1 };
}
