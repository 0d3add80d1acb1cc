import { Counter, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { MetricsModule } from '../src';
import { closeApps, startApp, testAppModule } from './support/test-app';

/** What an app does to add its own metric: inject the kit's registry and register on it. */
const appCounter = {
  provide: 'APP_COUNTER',
  inject: [Registry],
  useFactory: (registry: Registry) => {
    const counter = new Counter({ name: 'app_jobs_total', help: 'jobs', registers: [registry] });
    counter.inc(3);
    return counter;
  },
};

afterEach(closeApps);

describe('GET /metrics', () => {
  it("exposes Node's default metrics in Prometheus text format", async () => {
    const { url } = await startApp(testAppModule([MetricsModule.forRoot()]));

    const response = await fetch(`${url}/metrics`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await response.text()).toMatch(/^process_cpu_user_seconds_total \d/m);
  });

  it("includes the app's own metrics, and only that app's", async () => {
    const withCounter = await startApp(testAppModule([MetricsModule.forRoot()], [appCounter]));
    const without = await startApp(testAppModule([MetricsModule.forRoot()]));

    expect(await (await fetch(`${withCounter.url}/metrics`)).text()).toContain(
      'app_jobs_total 3\n',
    );
    expect(await (await fetch(`${without.url}/metrics`)).text()).not.toContain('app_jobs_total');
  });
});
