import { createTestRedis, testRedisUrl } from '@sluice/testing';
import type { TestProject } from 'vitest/node';
import { spawnDataPlane, type DataPlaneFeatures } from './data-plane';

export interface DataPlaneInfo {
  url: string;
  /** The data plane's key prefix: tenants and keys are published under it. */
  prefix: string;
  redisUrl: string;
  features: DataPlaneFeatures;
}

declare module 'vitest' {
  export interface ProvidedContext {
    dataPlane: DataPlaneInfo;
  }
}

/**
 * One data plane for the whole run, on a private key prefix of the test Redis: every spec file
 * seeds tenants of its own on it. Its features are known before the specs are collected, so
 * `describe.skipIf` can leave out what it does not serve yet.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const t = createTestRedis('sdk');
  const dataPlane = await spawnDataPlane(testRedisUrl(), t.prefix);
  project.provide('dataPlane', {
    url: dataPlane.url,
    prefix: t.prefix,
    redisUrl: testRedisUrl(),
    features: dataPlane.features,
  });
  return async () => {
    await dataPlane.process.stop();
    await t.cleanup();
  };
}
