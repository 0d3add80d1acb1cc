import { freePort, startServer, type ServerProcess } from '@sluice/testing';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The built data plane (`NX_DAEMON=false npx nx run @sluice/data-plane:build`), run as is;
 * `SDK_TEST_DATA_PLANE_MAIN` names another build's `main.js` (e.g. a snapshot of a release).
 */
const MAIN =
  process.env['SDK_TEST_DATA_PLANE_MAIN'] ??
  path.resolve(__dirname, '../../../apps/data-plane/dist/main.js');

/** What the running data plane serves, read from its OpenAPI document. */
export interface DataPlaneFeatures {
  /** `POST /v1/settle` (and policies with reservations) exists. */
  settle: boolean;
  /** `POST /v1/release` (and concurrency rules) exists. */
  release: boolean;
}

export interface DataPlane {
  url: string;
  features: DataPlaneFeatures;
  process: ServerProcess;
}

/**
 * Spawns the built data plane on a free port over `redisUrl`, its keys under `prefix`, and
 * waits until it is ready (Redis answered). Stop it with `process.stop()` (SIGTERM by PID).
 */
export async function spawnDataPlane(redisUrl: string, prefix: string): Promise<DataPlane> {
  if (!existsSync(MAIN)) {
    throw new Error(
      `${MAIN} is missing: build it first (NX_DAEMON=false npx nx run @sluice/data-plane:build)`,
    );
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await startServer(process.execPath, [MAIN], {
    env: {
      PATH: process.env['PATH'],
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATA_PLANE_PORT: String(port),
      REDIS_URL: redisUrl,
      SLUICE_KEY_PREFIX: prefix,
      LOG_LEVEL: 'silent',
    },
    readyUrl: `${url}/readyz`,
  });
  const openapi = await fetch(`${url}/docs/openapi.json`);
  const { paths } = (await openapi.json()) as { paths: Record<string, unknown> };
  return {
    url,
    features: { settle: '/v1/settle' in paths, release: '/v1/release' in paths },
    process: child,
  };
}
