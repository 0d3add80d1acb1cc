import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseEnv } from '@sluice/config';
import { afterEach, describe, expect, it } from 'vitest';
import packageJson from '../package.json';
import { createApp } from '../src/app';
import { envSchema } from '../src/env';

let app: NestFastifyApplication | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('control-plane HTTP', () => {
  it('answers GET /healthz with its name and version', async () => {
    app = await createApp(
      parseEnv(envSchema, {
        DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/sluice',
        LOG_LEVEL: 'silent',
      }),
    );
    await app.listen(0, '127.0.0.1');

    const response = await fetch(`${await app.getUrl()}/healthz`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      status: 'ok',
      service: 'control-plane',
      version: packageJson.version,
    });
  });
});
