import { Inject, Injectable } from '@nestjs/common';
import { AlgorithmInputError, type RuleSpec, validateRule } from '@sluice/algorithms';
import { RedisService } from '@sluice/nest-kit';
import { readTenant } from '@sluice/policy';
import { readCostByMinute, readTopCost } from '@sluice/usage';
import { TenantAccessService } from '../access/tenant-access.service';
import type { AuthUser } from '../auth/auth-user';
import { ENV, type Env } from '../env';
import { AppError } from '../graphql/app-error';
import { parseInput } from '../graphql/input';
import { paramsOf } from '../policy/models/rule.model';
import { policySchema, retainedMinutes } from '../usage/usage.service';
import type { EstimateRulesInput, RulesEstimate } from './models/estimate.model';
import { memoryMs, replaySpend, slicesPerMinute } from './spend-replay';

/** Identifiers replayed at most: the heaviest of the range. */
export const ESTIMATE_IDENTIFIERS = 100;
/**
 * Model evaluations one estimate may make (every rule, identifier and slice): tens of
 * milliseconds of the control plane's event loop. Beyond it, fewer identifiers are replayed.
 */
export const MAX_EVALUATIONS = 100_000;
/** Rules one estimate replays at most (each replays every identifier's 15 minutes). */
export const MAX_ESTIMATED_RULES = 8;
const RANGE_MS = 15 * 60_000;
const EXAMPLES = 5;

/**
 * "How many of the last 15 minutes' heaviest identifiers would have exceeded these limits": the
 * estimate the try-in-shadow editor shows before a proposal runs. Read-only, so a tenant's
 * members (viewers included) and operators may ask; nothing is written or published.
 */
@Injectable()
export class EstimateService {
  private readonly prefix: string;

  constructor(
    private readonly redis: RedisService,
    private readonly tenants: TenantAccessService,
    @Inject(ENV) env: Env,
  ) {
    this.prefix = env.SLUICE_KEY_PREFIX;
  }

  async estimate(user: AuthUser, input: EstimateRulesInput): Promise<RulesEstimate> {
    const tenant = await this.tenants.tenant(user, input.tenantId, 'read');
    const policy = parseInput(policySchema, input.policy, 'input.policy');
    const rules = specsOf(input);
    const published = await readTenant(this.redis.client, this.prefix, tenant.id);
    if (!published || !Object.hasOwn(published.policies, policy)) {
      throw AppError.badUserInput([
        { field: 'input.policy', message: `${tenant.name} has no published policy ${policy}` },
      ]);
    }
    const now = Date.now();
    const range = { from: new Date(now - RANGE_MS), to: new Date(now) };
    const { first, spend } = await this.heaviestSpend(tenant.id, policy, rules, range, now);
    // costliest first, so each rule's examples are the heaviest of those it denies
    const ids = [...spend.keys()];
    return {
      ...range,
      identifiers: ids.length,
      rules: rules.map(({ name, spec }) => {
        const exceeded: string[] = [];
        let deniedCost = 0;
        for (const id of ids) {
          const replay = replaySpend(spec, first, spend.get(id) ?? []);
          if (!replay.exceeded) continue;
          exceeded.push(id);
          deniedCost += replay.deniedCost;
        }
        return {
          name,
          wouldExceed: exceeded.length,
          deniedCost,
          examples: exceeded.slice(0, EXAMPLES),
          outlastsRange: memoryMs(spec) > RANGE_MS,
        };
      }),
    };
  }

  /**
   * The range's heaviest identifiers (costliest first, as many as the evaluation budget lets
   * `rules` replay) and their spend per minute from `first`; none when Redis keeps no minute of it.
   */
  private async heaviestSpend(
    tenantId: string,
    policy: string,
    rules: readonly { spec: RuleSpec }[],
    range: { from: Date; to: Date },
    now: number,
  ): Promise<{ first: number; spend: Map<string, number[]> }> {
    const minutes = retainedMinutes(range, now);
    if (!minutes) return { first: 0, spend: new Map() };
    const { first, last } = minutes;
    const at = [this.redis.client, this.prefix, tenantId, policy] as const;
    const slices = rules.reduce((sum, { spec }) => sum + slicesPerMinute(spec), 0);
    const budget = Math.floor(MAX_EVALUATIONS / ((last - first + 1) * slices));
    const heaviest = await readTopCost(
      ...at,
      first,
      last,
      Math.max(1, Math.min(ESTIMATE_IDENTIFIERS, budget)),
    );
    if (heaviest.length === 0) return { first, spend: new Map() };
    const ids = heaviest.map((row) => row.identifier);
    return { first, spend: await readCostByMinute(...at, ids, first, last) };
  }
}

/** Each input rule as the algorithms lib validates it; field errors under `input.rules.<i>`. */
function specsOf(input: EstimateRulesInput): { name: string; spec: RuleSpec }[] {
  if (input.rules.length < 1 || input.rules.length > MAX_ESTIMATED_RULES) {
    throw AppError.badUserInput([
      { field: 'input.rules', message: `must hold 1 to ${MAX_ESTIMATED_RULES} rules` },
    ]);
  }
  return input.rules.map((rule, i) => {
    const field = `input.rules.${i}`;
    if (rule.algorithm === 'concurrency') {
      throw AppError.badUserInput([
        {
          field: `${field}.algorithm`,
          message: 'a concurrency rule limits calls in flight, not spend: it cannot be estimated',
        },
      ]);
    }
    try {
      return {
        name: rule.name,
        spec: validateRule({ algorithm: rule.algorithm, ...paramsOf(rule) }, field),
      };
    } catch (error) {
      if (!(error instanceof AlgorithmInputError)) throw error;
      throw AppError.badUserInput([{ field: error.field, message: error.reason }]);
    }
  });
}
