/**
 * (c) The incumbent: express 5 + rate-limiter-flexible's RateLimiterRedis on ioredis.
 *
 * rate-limiter-flexible counts `points` per fixed `duration` (seconds) window. The token bucket
 * of (a)/(d) (capacity C, refill R/s) maps to points = C and duration = C / R: the same burst and
 * the same long-run rate (C per C/R seconds = R/s); only the shape inside a window differs.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { BENCH_LIMIT, CHECK_PATH } from '../workload';
import {
  closeOnSigterm,
  errorAnswer,
  MAX_BODY_BYTES,
  parseCheck,
  serverEnv,
  type CheckAnswer,
} from './common';

const env = serverEnv();
const durationSeconds = BENCH_LIMIT.capacity / BENCH_LIMIT.refillPerSecond;
if (!Number.isInteger(durationSeconds)) {
  throw new Error('BENCH_LIMIT must map to a whole number of seconds for rate-limiter-flexible');
}

const redis = new Redis(env.redisUrl);
const limiter = new RateLimiterRedis({
  storeClient: redis,
  keyPrefix: `${env.keyPrefix}c`,
  points: BENCH_LIMIT.capacity,
  duration: durationSeconds,
});

function answer(res: RateLimiterRes, allowed: boolean): CheckAnswer {
  return {
    allowed,
    limit: BENCH_LIMIT.capacity,
    remaining: res.remainingPoints,
    resetAt: Date.now() + res.msBeforeNext,
    retryAfterMs: allowed ? 0 : res.msBeforeNext,
  };
}

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.use(express.json({ limit: MAX_BODY_BYTES }));

app.post(CHECK_PATH, async (req: Request, res: Response) => {
  const check = parseCheck(req.body);
  try {
    res.json(answer(await limiter.consume(check.identifier, check.cost), true));
  } catch (rejection) {
    // rate-limiter-flexible rejects with a RateLimiterRes when denied, an Error when Redis fails
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    res.status(429).json(answer(rejection, false));
  }
});

// Express 5 forwards rejected async handlers and body-parser errors here.
app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
  const { status, body } = errorAnswer(error);
  res.status(status).json(body);
});

const server = app.listen(env.port, env.host);
closeOnSigterm(async () => {
  await new Promise((resolve) => server.close(resolve));
  await redis.quit();
});
