import { Controller, Get, Module, UseGuards, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SluiceClient } from '../src';
import {
  RateLimit,
  SkipRateLimit,
  SluiceGuard,
  SluiceModule,
  type SluiceGuardOptions,
} from '../src/nest';
import { listenNest, startNestApp, userHeader } from './apps';
import { describeGuard, type GuardApp } from './guard-suite';
import { bucket, clientFor, tenants, type Tenant } from './support';

describeGuard('Nest (Fastify platform)', startNestApp);

describe('Nest: per-route options and module set-ups', () => {
  const seed = tenants();
  let tenant: Tenant;
  const apps: GuardApp[] = [];
  beforeAll(async () => {
    tenant = await seed.create([
      { name: 'api', rules: [bucket('burst', 1)] },
      { name: 'search', rules: [bucket('burst', 10)] },
    ]);
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await seed.close();
  });

  @Controller()
  @UseGuards(SluiceGuard)
  class RoutesController {
    @Get('default')
    byDefault() {
      return 'ok';
    }

    @Get('search')
    @RateLimit({ policy: 'search', cost: 4 })
    search() {
      return 'ok';
    }

    @Get('health')
    @SkipRateLimit()
    health() {
      return 'ok';
    }
  }

  @Controller('admin')
  @RateLimit({ policy: 'search' })
  class AdminController {
    @Get()
    @UseGuards(SluiceGuard)
    list() {
      return 'ok';
    }
  }

  const start = async (module: Type) => {
    const app = await listenNest(module);
    apps.push(app);
    return (path: string, identity: string) =>
      fetch(`${app.url}${path}`, { headers: { 'x-user': identity } });
  };

  const options = (): SluiceGuardOptions => ({
    client: clientFor(tenant.apiKey),
    policy: 'api',
    identifier: userHeader,
  });

  it('@RateLimit on a handler or controller sets policy and cost; @SkipRateLimit skips', async () => {
    @Module({
      imports: [SluiceModule.forRoot(options())],
      controllers: [RoutesController, AdminController],
    })
    class AppModule {}
    const get = await start(AppModule);

    const search = await get('/search', 'routes-a');
    expect(search.headers.get('ratelimit-policy')).toBe('"burst";q=10;w=10000');
    expect(search.headers.get('x-ratelimit-remaining')).toBe('6');
    const admin = await get('/admin', 'routes-a');
    expect(admin.headers.get('x-ratelimit-remaining')).toBe('5');
    expect((await get('/default', 'routes-a')).status).toBe(200);
    expect((await get('/default', 'routes-a')).status).toBe(429);
    const health = await get('/health', 'routes-a');
    expect(health.status).toBe(200);
    expect(health.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('forRootAsync takes the options from a factory; APP_GUARD makes the guard global', async () => {
    const CLIENT = Symbol('CLIENT');
    @Module({
      providers: [{ provide: CLIENT, useValue: clientFor(tenant.apiKey) }],
      exports: [CLIENT],
    })
    class ClientModule {}

    @Controller()
    class PlainController {
      @Get('plain')
      plain() {
        return 'ok';
      }
    }

    @Module({
      imports: [
        SluiceModule.forRootAsync({
          imports: [ClientModule],
          inject: [CLIENT],
          useFactory: (client: SluiceClient) => ({ client, policy: 'api', identifier: userHeader }),
        }),
      ],
      controllers: [PlainController],
      providers: [{ provide: APP_GUARD, useExisting: SluiceGuard }],
    })
    class AppModule {}
    const get = await start(AppModule);

    expect((await get('/plain', 'global-a')).status).toBe(200);
    expect((await get('/plain', 'global-a')).status).toBe(429);
  });

  it('refuses a route without any policy: a configuration error, 500', async () => {
    const { policy: _policy, ...withoutPolicy } = options();
    @Module({
      imports: [SluiceModule.forRoot(withoutPolicy)],
      controllers: [RoutesController],
    })
    class AppModule {}
    const get = await start(AppModule);

    expect((await get('/default', 'nopolicy-a')).status).toBe(500);
    expect((await get('/search', 'nopolicy-a')).status).toBe(200);
  });
});
