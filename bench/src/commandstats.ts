/**
 * Redis commands a server's client issues per check, from `INFO commandstats`.
 *
 * Redis counts a command run by a script (redis.call) in commandstats exactly like one sent by a
 * client, so the raw deltas overstate what the client sent. The method, per round on a private
 * Redis: take every command's delta (calls + rejected_calls), subtract the commands the scripts
 * ran, and subtract the runner's own `INFO` (the "before" snapshot counts in the "after" one).
 * Script runs are the eval/evalsha/fcall calls minus their failed calls (a NOSCRIPT EVALSHA runs
 * nothing; ioredis then sends EVAL, itself one client command). What one run executes is known
 * from the script source in this bench's regime (allowed, cost 1, Redis clock), see PROFILES.
 * Each profiled command's residual (delta minus runs × per-run count) must then be 0: a positive
 * one means the client also sent that command itself (counted, and reported), a negative one
 * that scripts took another path (denials, an injected clock); both are reported as warnings.
 */
import type { Redis } from 'ioredis';

export interface CommandCount {
  calls: number;
  rejected: number;
  failed: number;
}

export type CommandStats = Map<string, CommandCount>;

/** Commands that run a script: each is one client command, whatever the script does inside. */
const SCRIPT_CALLERS = ['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro'];

/** Commands one script run executes, by command name (lower case). */
export type ScriptProfile = Readonly<Record<string, number>>;

export const PROFILES = {
  /**
   * libs/algorithms lua/includes/common.lua + token-bucket.lua, as token-bucket-1.lua or as
   * check-rules-n.lua with one token-bucket rule: TIME (Redis clock), HMGET (read), and when
   * allowed with cost > 0 HSET + PEXPIRE (commit).
   */
  sluiceTokenBucket: { time: 1, hmget: 1, hset: 1, pexpire: 1 },
  /**
   * rate-limiter-flexible lib/RateLimiterRedis.js incrTtlLuaScript: SET NX EX, INCRBY, PTTL;
   * its EXPIRE runs only for a key without TTL, which SET ... EX never leaves.
   */
  rateLimiterFlexible: { set: 1, incrby: 1, pttl: 1 },
  none: {},
} as const satisfies Record<string, ScriptProfile>;

export async function commandStats(redis: Redis): Promise<CommandStats> {
  return parseCommandStats(await redis.info('commandstats'));
}

/** `cmdstat_<name>:calls=N,usec=..,usec_per_call=..,rejected_calls=R,failed_calls=F` lines. */
export function parseCommandStats(info: string): CommandStats {
  const stats: CommandStats = new Map();
  for (const line of info.split(/\r?\n/)) {
    const match = /^cmdstat_([^:]+):(.*)$/.exec(line);
    if (!match) continue;
    const [, name = '', fields = ''] = match;
    const value = (field: string): number =>
      Number(new RegExp(`(?:^|,)${field}=(\\d+)`).exec(fields)?.[1] ?? 0);
    stats.set(name, {
      calls: value('calls'),
      rejected: value('rejected_calls'),
      failed: value('failed_calls'),
    });
  }
  return stats;
}

export interface IssuedCommands {
  /** Commands the clients sent during the round (the runner's own excluded). */
  issued: number;
  scriptRuns: number;
  /** Every command's delta (calls + rejected), for the raw results. */
  deltas: Record<string, number>;
  /** Profiled commands whose count is not runs × per-run count (see the module comment). */
  residuals: Record<string, number>;
}

export function issuedCommands(
  before: CommandStats,
  after: CommandStats,
  profile: ScriptProfile,
): IssuedCommands {
  const deltas: Record<string, number> = {};
  let total = 0;
  let scriptRuns = 0;
  for (const [name, now] of after) {
    const then = before.get(name) ?? { calls: 0, rejected: 0, failed: 0 };
    const delta = now.calls + now.rejected - (then.calls + then.rejected);
    if (delta === 0) continue;
    deltas[name] = delta;
    total += delta;
    if (SCRIPT_CALLERS.includes(name))
      scriptRuns += now.calls - now.failed - (then.calls - then.failed);
  }
  const residuals: Record<string, number> = {};
  let inner = 0;
  for (const [name, perRun] of Object.entries(profile)) {
    const expected = scriptRuns * perRun;
    inner += expected;
    const residual = (deltas[name] ?? 0) - expected;
    if (residual !== 0) residuals[name] = residual;
  }
  const ownInfo = 1;
  return { issued: total - inner - ownInfo, scriptRuns, deltas, residuals };
}
