import { Controller, Get, Module, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { sendProblem } from '../src';
import { closeApps, startApp, testAppModule } from './support/test-app';

interface ViolatedPolicy {
  policy: string;
  limit: number;
}

@Controller('problems')
class ProblemsController {
  @Get('rate-limited')
  rateLimited(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    sendProblem<{ 'violated-policies': ViolatedPolicy[] }>(reply, {
      status: 429,
      detail: 'Tenant acme exceeded 2 policies.',
      instance: request.url,
      'violated-policies': [
        { policy: 'per-second', limit: 10 },
        { policy: 'per-day', limit: 10_000 },
      ],
    });
  }

  @Get('typed')
  typed(@Res() reply: FastifyReply): void {
    sendProblem(reply, {
      type: 'https://sluice.dev/problems/unknown-tenant',
      title: 'Unknown tenant',
      status: 404,
    });
  }

  /** Compiles only while extension members must be declared, so typos cannot slip through. */
  undeclared(@Res() reply: FastifyReply): void {
    // @ts-expect-error `detial` is neither a standard member nor a declared extension.
    sendProblem(reply, { status: 400, detial: 'typo' });
  }
}

@Module({ controllers: [ProblemsController] })
class ProblemsModule {}

afterEach(closeApps);

describe('sendProblem', () => {
  it('sends application/problem+json with the status, defaults and extension members', async () => {
    const { url } = await startApp(testAppModule([ProblemsModule]));

    const response = await fetch(`${url}/problems/rate-limited?tenant=acme`);

    expect(response.status).toBe(429);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toEqual({
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: 'Tenant acme exceeded 2 policies.',
      instance: '/problems/rate-limited?tenant=acme',
      'violated-policies': [
        { policy: 'per-second', limit: 10 },
        { policy: 'per-day', limit: 10_000 },
      ],
    });
  });

  it('keeps a given type and title', async () => {
    const { url } = await startApp(testAppModule([ProblemsModule]));

    const response = await fetch(`${url}/problems/typed`);

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      type: 'https://sluice.dev/problems/unknown-tenant',
      title: 'Unknown tenant',
      status: 404,
    });
  });
});
