import fastifyCookie from '@fastify/cookie';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createFastifyApp } from '@sluice/nest-kit';
import { AppModule } from './app.module';
import type { Env } from './env';

/** The configured, not yet listening application; `main.ts` listens, tests may use port 0. */
export async function createApp(env: Env): Promise<NestFastifyApplication> {
  const app = await createFastifyApp(AppModule.forRoot(env), {
    trustedProxies: env.CONTROL_PLANE_TRUSTED_PROXIES,
  });
  // request.cookies and reply.setCookie, for the session and CSRF cookies. Nest pins its own copy
  // of fastify, whose instance type differs from the one @fastify/cookie's types augment (the
  // plugin itself works with either: it only decorates the instance it is given).
  await app.register(fastifyCookie as unknown as Parameters<NestFastifyApplication['register']>[0]);
  return app;
}
