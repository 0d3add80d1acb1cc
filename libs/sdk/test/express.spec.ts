import express, { type ErrorRequestHandler } from 'express';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NotFoundError, SluiceGuardError } from '../src';
import { sluiceExpress } from '../src/express';
import { startExpressApp } from './apps';
import { describeGuard } from './guard-suite';
import { bucket, clientFor, tenants, type Tenant } from './support';

describeGuard('Express', startExpressApp);

const seed = tenants();
let tenant: Tenant;
beforeAll(async () => {
  tenant = await seed.create([{ name: 'api', rules: [bucket('burst', 5)] }]);
});
afterAll(() => seed.close());

it('hands the app’s error handler a SluiceGuardError whose cause is the typed error', async () => {
  const seen: unknown[] = [];
  const app = express();
  app.use(sluiceExpress({ client: clientFor(tenant.apiKey), policy: 'no-such-policy' }));
  app.get('/hello', (_req, res) => res.send('not reached'));
  const handler: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    seen.push(error);
    res.status(500).send('configuration');
  };
  app.use(handler);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const response = await fetch(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/hello`,
    );

    expect(response.status).toBe(500);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(SluiceGuardError);
    expect((seen[0] as SluiceGuardError).cause).toBeInstanceOf(NotFoundError);
    expect(seen[0]).not.toHaveProperty('status');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
