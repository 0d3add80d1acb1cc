import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createFastifyApp } from '@sluice/nest-kit';
import { AppModule } from './app.module';
import type { Env } from './env';

/** The configured, not yet listening application; `main.ts` listens, tests may use port 0. */
export function createApp(env: Env): Promise<NestFastifyApplication> {
  return createFastifyApp(AppModule.forRoot(env));
}
