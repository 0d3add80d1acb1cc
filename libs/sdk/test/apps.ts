import { Controller, Get, Inject, Module, Req, UseGuards, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import express from 'express';
import Fastify, { type FastifyRequest } from 'fastify';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { sluiceExpress } from '../src/express';
import { sluicePlugin } from '../src/fastify';
import { SluiceGuard, SluiceModule, type NestHttpRequest } from '../src/nest';
import type { GuardApp, GuardAppOptions, StartGuardApp } from './guard-suite';

// Real apps of each framework with the SDK's adapter in front of `GET /hello`, which runs
// `handle` and answers 200 `{ reason, remaining }` from the result the adapter exposes.

/** The `x-user` header, the identifier of most tests. */
export const userHeader = (request: FastifyRequest | NestHttpRequest) => {
  const value = request.headers['x-user'];
  return typeof value === 'string' ? value : undefined;
};

export const startExpressApp: StartGuardApp = async ({ client, policy, identify, handle }) => {
  const app = express();
  app.use(
    sluiceExpress({
      client,
      policy,
      ...(identify === 'header' ? { identifier: (req) => req.get('x-user') } : {}),
    }),
  );
  app.get('/hello', async (_req, res) => {
    await handle();
    const { reason, remaining } = res.locals.sluice!;
    res.json({ reason, remaining });
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};

export const startFastifyApp: StartGuardApp = async ({ client, policy, identify, handle }) => {
  const app = Fastify();
  await app.register(sluicePlugin, {
    client,
    policy,
    ...(identify === 'header' ? { identifier: userHeader } : {}),
  });
  app.get('/hello', async (request) => {
    await handle();
    const { reason, remaining } = request.sluice!;
    return { reason, remaining };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: () => app.close(),
  };
};

const HANDLE = Symbol('HANDLE');

@Controller()
class HelloController {
  constructor(@Inject(HANDLE) private readonly handle: GuardAppOptions['handle']) {}

  @Get('hello')
  @UseGuards(SluiceGuard)
  async hello(@Req() request: NestHttpRequest) {
    await this.handle();
    const { reason, remaining } = request.sluice!;
    return { reason, remaining };
  }
}

/** A Nest app of `module` on the Fastify platform, listening on a free port. */
export async function listenNest(module: Type): Promise<GuardApp> {
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), {
    logger: false,
  });
  await app.listen(0, '127.0.0.1');
  return { url: await app.getUrl(), close: () => app.close() };
}

export const startNestApp: StartGuardApp = ({ client, policy, identify, handle }) => {
  @Module({
    imports: [
      SluiceModule.forRoot({
        client,
        policy,
        ...(identify === 'header' ? { identifier: userHeader } : {}),
      }),
    ],
    controllers: [HelloController],
    providers: [{ provide: HANDLE, useValue: handle }],
  })
  class AppModule {}
  return listenNest(AppModule);
};
