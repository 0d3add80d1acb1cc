import { createServer } from 'node:http';
import { join } from 'node:path';
import next from 'next';
import { envSchema, loadEnv } from '../src/env';
import { createControlPlaneProxy, isGraphqlRequest } from './control-plane-proxy';

/**
 * The dashboard's server: Next's request handler, with `/graphql` (HTTP and WebSocket) proxied to
 * the control plane named by CONTROL_PLANE_URL when the server starts (rewrites would be fixed at
 * build time, and Next's route handlers cannot upgrade a WebSocket).
 */
async function main(): Promise<void> {
  const env = loadEnv(envSchema);
  const app = next({ dev: false, dir: join(__dirname, '..', '..') });
  await app.prepare();
  const handle = app.getRequestHandler();
  const proxy = createControlPlaneProxy(env.CONTROL_PLANE_URL);
  const server = createServer((req, res) => {
    if (isGraphqlRequest(req.url)) proxy.web(req, res);
    else void handle(req, res);
  });
  server.on('upgrade', (req, socket, head) => {
    if (isGraphqlRequest(req.url)) proxy.upgrade(req, socket, head);
    else socket.destroy();
  });
  server.listen(env.DASHBOARD_PORT, env.HOST, () => {
    console.log(`dashboard listening on http://${env.HOST}:${env.DASHBOARD_PORT}`);
  });
  const stop = () => {
    proxy.close();
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
