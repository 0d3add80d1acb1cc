/**
 * (d) The practical ceiling of Node + Redis: minimal Fastify, one ioredis connection, one
 * token-bucket EVALSHA per request through @sluice/algorithms' tokenBucket(), nothing else.
 */
import { tokenBucket } from '@sluice/algorithms';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
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
const redis = new Redis(env.redisUrl);
const app = Fastify({ logger: false, bodyLimit: MAX_BODY_BYTES });

app.post(CHECK_PATH, async (request, reply) => {
  const check = parseCheck(request.body);
  // identifiers are bounded (1..256 bytes), so the key is too
  const decision = await tokenBucket(redis, `${env.keyPrefix}d:${check.identifier}`, BENCH_LIMIT, {
    cost: check.cost,
  });
  const answer: CheckAnswer = {
    allowed: decision.allowed,
    limit: decision.limit,
    remaining: decision.remaining,
    resetAt: decision.resetAt,
    retryAfterMs: decision.retryAfter,
  };
  return reply.code(decision.allowed ? 200 : 429).send(answer);
});

app.setErrorHandler((error, _request, reply) => {
  const { status, body } = errorAnswer(error);
  return reply.code(status).send(body);
});

closeOnSigterm(async () => {
  await app.close();
  await redis.quit();
});
app.listen({ port: env.port, host: env.host }).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
