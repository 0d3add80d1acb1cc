import { testRedisUrl } from '@sluice/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisModule, RedisService } from '../src';
import { closeApp, closeApps, RecordingLogger, startApp, testAppModule } from './support/test-app';

afterEach(closeApps);

describe('createFastifyApp', () => {
  it('logs "shut down" under the root module\'s name once every connection is closed', async () => {
    const { app } = await startApp(testAppModule([RedisModule.forRoot({ url: testRedisUrl() })]));
    const redis = app.get(RedisService).client;
    // Closing a connection still being opened cannot be awaited; one that is open can.
    await redis.ping();
    const shutdownLines: { context: string | undefined; redisStatus: string }[] = [];
    app.useLogger(
      new RecordingLogger(({ message, context }) => {
        if (message === 'shut down') shutdownLines.push({ context, redisStatus: redis.status });
      }),
    );

    await closeApp(app);

    expect(shutdownLines).toEqual([{ context: 'TestAppModule', redisStatus: 'end' }]);
  });
});
