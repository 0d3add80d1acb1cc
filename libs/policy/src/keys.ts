import { ID_PATTERN } from './names';
import { PolicyValidationError } from './errors';

/**
 * Redis layout under the deployment prefix P (e.g. `sluice:`):
 * - `P tenant:{<tenantId>}` hash `{ version, publishedAt, config }` (`deletedAt` on a tombstone)
 * - `P apikey:<sha256 hex>` string: the ApiKeyRecord JSON, expiring with the key
 * - `P changes` channel: JSON ChangeMessage
 */
export function tenantKey(prefix: string, tenantId: string): string {
  return `${prefix}tenant:{${checkId('tenantId', tenantId)}}`;
}

export function apiKeyKey(prefix: string, hash: string): string {
  return `${prefix}apikey:${hash}`;
}

export function changesChannel(prefix: string): string {
  return `${prefix}changes`;
}

/** Ids go into key names, so anything else (braces, huge strings) is refused first. */
export function checkId(field: string, id: unknown): string {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw new PolicyValidationError([{ path: field, message: `must match ${ID_PATTERN.source}` }]);
  }
  return id;
}
