import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { decide, finishOnClose, PROBLEM_CONTENT_TYPE, type GuardOptions } from './http-guard';
import type { CheckResult } from './types';

export type { GuardOptions } from './http-guard';
export type SluiceFastifyOptions = GuardOptions<FastifyRequest>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The check that let this request through (set by the Sluice hook). */
    sluice?: CheckResult;
  }
}

/**
 * A Fastify hook (for `onRequest`, or `preHandler` when the identifier needs the parsed body):
 * checks the request, sets the rate-limit headers on the reply, and answers a denial with the
 * data plane's problem+json (429, or 403 for a suspended tenant), or 503 when the data plane
 * cannot decide and the client fails closed. The result is at `request.sluice`. Configuration
 * errors (a bad key, an unknown policy) reach Fastify's error handler as `SluiceGuardError` (500).
 */
export function sluiceHook(
  options: SluiceFastifyOptions,
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined> {
  return async (request, reply) => {
    const verdict = await decide(options, request);
    reply.headers(verdict.headers);
    if (!verdict.pass) {
      return reply.code(verdict.status).type(PROBLEM_CONTENT_TYPE).send(verdict.problem);
    }
    request.sluice = verdict.result;
    finishOnClose(options.client, verdict.result, reply.raw);
    return undefined;
  };
}

async function plugin(app: FastifyInstance, options: SluiceFastifyOptions): Promise<void> {
  app.addHook('onRequest', sluiceHook(options));
}

/**
 * `app.register(sluicePlugin, { client, policy })`: the hook on every route of the instance it is
 * registered on. It is not shut in a context of its own (what `fastify-plugin` does, without the
 * dependency), so routes declared next to the registration are guarded. For some routes only, put
 * `sluiceHook(options)` in their `onRequest` option instead.
 */
export const sluicePlugin: FastifyPluginAsync<SluiceFastifyOptions> = Object.assign(plugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'sluice',
});
