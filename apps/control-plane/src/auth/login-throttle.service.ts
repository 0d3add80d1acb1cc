import { Inject, Injectable } from '@nestjs/common';
import { checkRule, ruleKey, ruleKeys, type SlidingWindowLogRule } from '@sluice/algorithms';
import { RedisService } from '@sluice/nest-kit';
import { ENV, type Env } from '../env';
import { AppError } from '../graphql/app-error';

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/** TOO_MANY_REQUESTS for a refused attempt, e.g. "Too many login attempts. Try again in 2 minutes." */
export function throttledError(attempts: string, retryAfterMs: number): AppError {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return AppError.tooManyRequests(
    `Too many ${attempts}. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    Math.ceil(retryAfterMs / 1000),
  );
}

/** Each action counts apart: asking for password resets never locks anyone out of login. */
export type ThrottledAction = 'login' | 'password-reset';

/**
 * The login mutation's own rate limits, decided by the Sluice algorithms in Redis: a sliding
 * window log per account (the normalised email, whether or not it exists) and one per client IP.
 * Every attempt is counted before the password is checked, so parallel guesses cannot slip
 * past the limit while their hashes are being verified.
 */
@Injectable()
export class LoginThrottleService {
  private readonly prefix: string;
  private readonly accountRule: SlidingWindowLogRule;
  private readonly ipRule: SlidingWindowLogRule;

  constructor(
    private readonly redis: RedisService,
    @Inject(ENV) env: Env,
  ) {
    this.prefix = `${env.SLUICE_KEY_PREFIX}auth:`;
    const windowMs = env.CONTROL_PLANE_LOGIN_WINDOW_SECONDS * 1000;
    this.accountRule = {
      algorithm: 'sliding_window_log',
      limit: env.CONTROL_PLANE_LOGIN_ACCOUNT_LIMIT,
      windowMs,
    };
    this.ipRule = {
      algorithm: 'sliding_window_log',
      limit: env.CONTROL_PLANE_LOGIN_IP_LIMIT,
      windowMs,
    };
  }

  /** Counts one attempt against the IP, then the account; refused when either is spent. */
  async attempt(
    email: string,
    ip: string,
    action: ThrottledAction = 'login',
  ): Promise<ThrottleVerdict> {
    for (const [key, rule] of [
      [this.ipKey(ip, action), this.ipRule],
      [this.accountKey(email, action), this.accountRule],
    ] as const) {
      const decision = await checkRule(this.redis.client, key, rule);
      if (!decision.allowed) return { allowed: false, retryAfterMs: decision.retryAfter };
    }
    return { allowed: true };
  }

  /** After a successful login: earlier typos must not count towards a later lock-out. */
  async forgetAccount(email: string): Promise<void> {
    await this.redis.client.del(...ruleKeys(this.accountRule, this.accountKey(email, 'login')));
  }

  private accountKey(email: string, action: ThrottledAction): string {
    return ruleKey({
      prefix: this.prefix,
      scope: `${action}-account`,
      identifier: email,
      rule: 'attempts',
    });
  }

  private ipKey(ip: string, action: ThrottledAction): string {
    return ruleKey({
      prefix: this.prefix,
      scope: `${action}-ip`,
      identifier: ip,
      rule: 'attempts',
    });
  }
}
