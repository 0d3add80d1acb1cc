import { loadEnv } from '@sluice/config';
import { Logger } from 'nestjs-pino';
import { createApp } from './app';
import { envSchema } from './env';

async function bootstrap(): Promise<void> {
  const env = loadEnv(envSchema);
  const app = await createApp(env);
  // SIGTERM/SIGINT run the Nest shutdown hooks, so connections close before exit.
  app.enableShutdownHooks();
  await app.listen(env.CONTROL_PLANE_PORT, env.HOST);
  app.get(Logger).log(`control-plane listening on ${await app.getUrl()}`);
}

// A failed boot rejects; Node prints the error and exits non-zero.
void bootstrap();
