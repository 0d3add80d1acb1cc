import { Inject, Injectable } from '@nestjs/common';
import { AlgorithmInputError, compareAlgorithms, MAX_COMPARISON_LIMIT } from '@sluice/algorithms';
import { RedisService } from '@sluice/nest-kit';
import { z } from 'zod';
import type { AuthUser } from '../auth/auth-user';
import { ENV, type Env } from '../env';
import { AppError } from '../graphql/app-error';
import { parseInput } from '../graphql/input';
import { OneRunPerUser } from './one-run-per-user';
import {
  type AlgorithmComparison,
  type AlgorithmComparisonArgs,
  MAX_COMPARISON_WINDOW_SECONDS,
} from './models/algorithm-comparison.model';

const between = (min: number, max: number) =>
  z
    .number()
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be from ${min} to ${max}`)
    .max(max, `must be from ${min} to ${max}`);

/**
 * The playground's algorithm comparison: no tenant's data, any signed-in user. Its replays run
 * on scratch keys under `<prefix>compare:` (deleted after), at most `MAX_COMPARISON_LIMIT` × 6
 * checks per algorithm, one comparison at a time per user in this process.
 */
@Injectable()
export class AlgorithmComparisonService {
  private readonly runs = new OneRunPerUser(
    'A comparison of yours is still running; try again when it ends.',
  );
  private readonly keyPrefix: string;

  constructor(
    private readonly redis: RedisService,
    @Inject(ENV) env: Env,
  ) {
    this.keyPrefix = `${env.SLUICE_KEY_PREFIX}compare:`;
  }

  async compare(user: AuthUser, args: AlgorithmComparisonArgs): Promise<AlgorithmComparison> {
    const limit = parseInput(between(1, MAX_COMPARISON_LIMIT), args.limit, 'limit');
    const windowSeconds = parseInput(
      between(1, MAX_COMPARISON_WINDOW_SECONDS),
      args.windowSeconds,
      'windowSeconds',
    );
    return this.runs.run(user.id, async () => {
      try {
        const windowMs = windowSeconds * 1000;
        const comparison = await compareAlgorithms(this.redis.client, {
          pattern: args.pattern,
          limit,
          windowMs,
          keyPrefix: this.keyPrefix,
          now: Date.now(),
        });
        return {
          pattern: args.pattern,
          limit,
          windowMs,
          bucketMs: comparison.bucketMs,
          arrivals: comparison.arrivals,
          algorithms: comparison.algorithms.map((a) => ({
            ...a,
            mostInAnyWindowRatio: a.mostInAnyWindow / limit,
          })),
        };
      } catch (error) {
        if (error instanceof AlgorithmInputError) throw error;
        throw AppError.unavailable('Redis did not answer; try again shortly.');
      }
    });
  }
}
