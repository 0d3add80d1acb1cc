import { identifierHash, ruleKey } from '@sluice/algorithms';
import { ID_PATTERN } from '@sluice/policy';
import { createHash } from 'node:crypto';
import { WebhookInputError } from './errors';

/**
 * Redis layout under the deployment prefix P (see docs/architecture.md):
 * - `P webhook-endpoints:{<tenantId>}` hash: `id:<endpointId>` and `name:<name>` → the
 *   published endpoint (JSON); written by the control plane's relay, read by intake and worker;
 *   plus `ENABLED_ENDPOINTS_FIELD` → how many are enabled, present only when some are
 * - `P webhook-index` set: `<tenantId>/<endpointId>` of every published endpoint (for /metrics)
 * - `P webhook-idem:{<tenantId>}:<hash of the key>` string: an idempotency key's first answer
 * - per endpoint, one hash tag `{<tenantId>.<endpointId>:<hash>}` (the algorithms lib's rule-key
 *   form, scope `<tenantId>.<endpointId>`), under `P webhook:`:
 *   `admission` (leaky bucket: the FIFO's departure schedule), `dispatch` (leaky bucket: the pace
 *   at pick-up), `in-flight` (concurrency leases), `pending` / `dead` (zsets of event ids),
 *   `state` (hash: counters, consecutive failures, pause), and the admission's reservation records
 */
export function endpointsKey(prefix: string, tenantId: string): string {
  return `${prefix}webhook-endpoints:{${checkId('tenantId', tenantId)}}`;
}

/**
 * Present in a tenant's endpoints hash only while at least one endpoint is enabled (its value:
 * how many). Sluice's own events test it first, so a tenant without endpoints costs one HEXISTS:
 * the data plane's usage flush does so in the same slot as the tenant's alert claims.
 */
export const ENABLED_ENDPOINTS_FIELD = 'enabled-endpoints';

export function endpointIndexKey(prefix: string): string {
  return `${prefix}webhook-index`;
}

export function idempotencyKey(prefix: string, tenantId: string, key: string): string {
  const hash = createHash('sha256').update(key, 'utf8').digest('base64url').slice(0, 22);
  return `${prefix}webhook-idem:{${checkId('tenantId', tenantId)}}:${hash}`;
}

/** Rule keys of the endpoint's limiters start with this (`ruleKey`'s prefix). */
export function webhookRulePrefix(prefix: string): string {
  return `${prefix}webhook:`;
}

/** The limiters' scope: two tenants never share an endpoint's keys. */
export function endpointScope(tenantId: string, endpointId: string): string {
  return `${checkId('tenantId', tenantId)}.${checkId('endpointId', endpointId)}`;
}

/**
 * The identifier of every per-endpoint key: the endpoint is one queue, so one constant; its
 * hash only completes the rule-key form.
 */
export const QUEUE_IDENTIFIER = 'queue';
export const QUEUE_ID_HASH = identifierHash(QUEUE_IDENTIFIER);

export interface EndpointKeys {
  admission: string;
  dispatch: string;
  inFlight: string;
  pending: string;
  dead: string;
  state: string;
}

/** Every per-endpoint key; all share one hash tag, so any of them may go in one script. */
export function endpointKeys(prefix: string, tenantId: string, endpointId: string): EndpointKeys {
  const key = (rule: string) =>
    ruleKey({
      prefix: webhookRulePrefix(prefix),
      scope: endpointScope(tenantId, endpointId),
      identifier: QUEUE_IDENTIFIER,
      rule,
    });
  return {
    admission: key('admission'),
    dispatch: key('dispatch'),
    inFlight: key('in-flight'),
    pending: key('pending'),
    dead: key('dead'),
    state: key('state'),
  };
}

/** Ids go into key names, so anything else (braces, huge strings) is refused first. */
export function checkId(field: string, id: unknown): string {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw new WebhookInputError([{ path: field, message: `must match ${ID_PATTERN.source}` }]);
  }
  return id;
}
