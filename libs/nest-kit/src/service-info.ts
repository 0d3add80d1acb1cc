import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** What a service says about itself on /healthz and in every log line. */
export interface ServiceInfo {
  readonly service: string;
  readonly version: string;
}

const manifestSchema = z.object({ name: z.string().min(1), version: z.string().min(1) });

/**
 * Reads name and version from a package.json at runtime (it lies outside tsc's rootDir, so it
 * cannot be imported). The npm scope is dropped: `@sluice/worker` is the service `worker`.
 */
export function readServiceInfo(manifestPath: string): ServiceInfo {
  const result = manifestSchema.safeParse(JSON.parse(readFileSync(manifestPath, 'utf8')));
  if (!result.success) {
    throw new Error(`${manifestPath}: ${z.prettifyError(result.error)}`);
  }
  return { service: result.data.name.replace(/^@[^/]+\//, ''), version: result.data.version };
}
