import type { ChainableCommander } from 'ioredis';
import { logEntries, type LogEntry, type UsageAggregate } from './aggregate';
import type { AnswerFigures, RuleFigures } from './figures';
import {
  activeMember,
  decisionLogKey,
  keyLastUsedKey,
  topCostKey,
  topDeniedKey,
  usageActiveKey,
  usageSecondKey,
} from './keys';
import { queueTouchLastUsed } from './last-used';

export interface FlushSettings {
  prefix: string;
  retentionSeconds: number;
  topK: number;
  decisionLogMaxLen: number;
}

/** One Redis command of a flush, with the way back into memory should it fail. */
export interface FlushCommand {
  readonly key: string;
  /** Epoch second from which retrying is pointless (the data is past retention); none: always. */
  readonly staleFrom: number | undefined;
  send(pipeline: ChainableCommander): void;
  /** Puts this command's share back into `into` (the aggregate being recorded). */
  restore(into: UsageAggregate): void;
  /** Receives Redis' reply when the command succeeded (most commands need none). */
  onReply?(reply: unknown): void;
}

/**
 * Every command one flush sends. Each carries its own share (one hash field, one identifier, one
 * log entry), so when only some commands of a pipeline fail, only those are retried.
 *
 * Per-second and per-minute keys expire at an absolute time (their window's end + retention):
 * the same on every data plane and whether the counts came in one flush or many. The log stream
 * is written continuously, so it expires `retentionSeconds` after its last write instead.
 *
 * Every (tenant, policy) with seconds in a minute is added to that minute's active set, which
 * expires with the minute's top-K (so it outlives every second it points at).
 */
export function flushCommands(batch: UsageAggregate, settings: FlushSettings): FlushCommand[] {
  const { prefix, retentionSeconds, topK, decisionLogMaxLen } = settings;
  const commands: FlushCommand[] = [];
  /** Epoch minute → active member → one of its seconds (to restore should the SADD fail). */
  const active = new Map<number, Map<string, ActiveSecond>>();
  for (const [tenantId, tenant] of batch.tenants) {
    for (const [name, policy] of tenant.policies) {
      const restoreSecond = (into: UsageAggregate, second: number) => {
        const target = into.policyOf(tenantId, name);
        return target && into.second(target, second);
      };
      for (const second of policy.seconds.keys()) {
        const minute = Math.floor(second / 60);
        let members = active.get(minute);
        if (!members) active.set(minute, (members = new Map()));
        const member = activeMember(tenantId, name);
        if (!members.has(member)) members.set(member, { restore: restoreSecond, second });
      }
      const restoreMinute = (into: UsageAggregate, minute: number) => {
        const target = into.policyOf(tenantId, name);
        return target && into.minute(target, minute);
      };

      for (const [second, counters] of policy.seconds) {
        const key = usageSecondKey(prefix, tenantId, name, second);
        const expireAt = second + 1 + retentionSeconds;
        for (const [field, amount] of counters) {
          commands.push({
            key,
            staleFrom: expireAt,
            send: (pipeline) => pipeline.hincrby(key, field, amount),
            restore: (into) => {
              const target = restoreSecond(into, second);
              if (target) into.add(target, field, amount);
            },
          });
        }
        commands.push({
          key,
          staleFrom: expireAt,
          send: (pipeline) => pipeline.expireat(key, expireAt),
          restore: (into) => restoreSecond(into, second),
        });
      }

      const restoreCostMinute = (into: UsageAggregate, minute: number) => {
        const target = into.policyOf(tenantId, name);
        return target && into.costMinute(target, minute);
      };
      for (const [minute, identifiers] of policy.minutes) {
        commands.push(
          ...topCommands(topDeniedKey(prefix, tenantId, name, minute), identifiers, {
            expireAt: (minute + 1) * 60 + retentionSeconds,
            topK,
            restore: (into) => restoreMinute(into, minute),
            add: (into, target, identifier, amount) => into.addDenied(target, identifier, amount),
          }),
        );
      }
      for (const [minute, identifiers] of policy.costMinutes) {
        // only the flush's K costliest: Redis keeps K anyway, and a heavy hitter is one of them
        // in every flush it spends in; sending each one-off identifier would add a command for
        // about every check of a policy with many identifiers
        commands.push(
          ...topCommands(topCostKey(prefix, tenantId, name, minute), costliest(identifiers, topK), {
            expireAt: (minute + 1) * 60 + retentionSeconds,
            topK,
            restore: (into) => restoreCostMinute(into, minute),
            add: (into, target, identifier, amount) => into.addCost(target, identifier, amount),
          }),
        );
      }

      const entries = logEntries(policy);
      if (entries.length > 0 || policy.logExpirePending) {
        const key = decisionLogKey(prefix, tenantId, name);
        for (const entry of entries) {
          commands.push({
            key,
            staleFrom: Math.floor(entry.at / 1000) + 1 + retentionSeconds,
            send: (pipeline) =>
              pipeline.xadd(key, 'MAXLEN', '~', decisionLogMaxLen, '*', ...logFields(entry)),
            restore: (into) => {
              const target = into.policyOf(tenantId, name);
              if (target) into.addLog(target, entry);
            },
          });
        }
        commands.push({
          key,
          staleFrom: undefined,
          send: (pipeline) => pipeline.expire(key, retentionSeconds),
          restore: (into) => {
            const target = into.policyOf(tenantId, name);
            if (target) target.logExpirePending = true;
          },
        });
      }
    }

    if (tenant.lastUsed.size > 0) {
      const key = keyLastUsedKey(prefix, tenantId);
      const uses = [...tenant.lastUsed];
      commands.push({
        key,
        staleFrom: undefined,
        send: (pipeline) => queueTouchLastUsed(pipeline, key, uses.flat()),
        restore: (into) => {
          const target = into.tenant(tenantId);
          if (target) for (const [keyId, at] of uses) into.touchLastUsed(target, keyId, at);
        },
      });
    }
  }

  for (const [minute, members] of active) {
    const key = usageActiveKey(prefix, minute);
    const expireAt = (minute + 1) * 60 + retentionSeconds;
    // an empty second of each member restored makes the next flush add it again (and expire it)
    const restore = (into: UsageAggregate) => {
      for (const { restore: restoreSecond, second } of members.values())
        restoreSecond(into, second);
    };
    commands.push(
      {
        key,
        staleFrom: expireAt,
        send: (pipeline) => pipeline.sadd(key, ...members.keys()),
        restore,
      },
      {
        key,
        staleFrom: expireAt,
        send: (pipeline) => pipeline.expireat(key, expireAt),
        restore,
      },
    );
  }
  return commands;
}

/** The `count` largest entries of `identifiers` (all of them when there are no more). */
function costliest(identifiers: Map<string, number>, count: number): Map<string, number> {
  if (identifiers.size <= count) return identifiers;
  return new Map([...identifiers].sort((a, b) => b[1] - a[1]).slice(0, count));
}

/**
 * One minute's sorted set of identifiers (top denied, top cost): each identifier's amount added,
 * the set trimmed to its `topK` highest scores and expired at the minute's end + retention.
 */
function topCommands(
  key: string,
  identifiers: Map<string, number>,
  options: {
    expireAt: number;
    topK: number;
    restore: (into: UsageAggregate) => Map<string, number> | undefined;
    add: (into: UsageAggregate, target: Map<string, number>, id: string, amount: number) => void;
  },
): FlushCommand[] {
  const { expireAt, topK, restore, add } = options;
  const commands: FlushCommand[] = [];
  for (const [identifier, amount] of identifiers) {
    commands.push({
      key,
      staleFrom: expireAt,
      send: (pipeline) => pipeline.zincrby(key, amount, identifier),
      restore: (into) => {
        const target = restore(into);
        if (target) add(into, target, identifier, amount);
      },
    });
  }
  commands.push(
    {
      key,
      staleFrom: expireAt,
      // ranks 0..-(topK+1) are all but the topK highest scores
      send: (pipeline) => pipeline.zremrangebyrank(key, 0, -(topK + 1)),
      restore,
    },
    {
      key,
      staleFrom: expireAt,
      send: (pipeline) => pipeline.expireat(key, expireAt),
      restore,
    },
  );
  return commands;
}

interface ActiveSecond {
  restore: (into: UsageAggregate, second: number) => unknown;
  second: number;
}

/** Stream fields; absent optional ones are left out rather than written empty. */
function logFields(entry: LogEntry): (string | number)[] {
  const fields: (string | number)[] = [
    'time',
    entry.at,
    'identifier',
    entry.identifier,
    'outcome',
    entry.outcome,
    'reason',
    entry.reason,
  ];
  if (entry.deniedBy !== undefined) fields.push('deniedBy', entry.deniedBy);
  if (entry.overrideId !== undefined) fields.push('overrideId', entry.overrideId);
  fields.push('cost', entry.cost);
  if (entry.shadowDenied) fields.push('shadow', 1);
  if (entry.candidatesDeniedBy?.length)
    fields.push('candidates', entry.candidatesDeniedBy.join(','));
  if (entry.answer !== undefined) fields.push('answer', JSON.stringify(loggedAnswer(entry.answer)));
  if (entry.rules?.length) fields.push('rules', JSON.stringify(entry.rules.map(loggedRule)));
  return fields;
}

/** The figures a log entry keeps, picked from the engine's objects (which hold more). */
function loggedAnswer({ limit, remaining, resetAt, retryAfterMs }: AnswerFigures): AnswerFigures {
  return { limit, remaining, resetAt, retryAfterMs };
}

function loggedRule(rule: RuleFigures): RuleFigures {
  const { name, algorithm, allowed, limit, remaining, resetAt, retryAfterMs, quota, windowMs } =
    rule;
  return {
    name,
    algorithm,
    allowed,
    limit,
    remaining,
    resetAt,
    retryAfterMs,
    quota,
    windowMs,
    ...(rule.calendarUnit === undefined ? {} : { calendarUnit: rule.calendarUnit }),
  };
}
