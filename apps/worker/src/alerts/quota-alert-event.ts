import type { QuotaAlert } from '@sluice/usage';
import { QUOTA_THRESHOLD_EVENT, type OwnEventInput } from '@sluice/webhooks';

/**
 * The `sluice.quota.threshold` event of an alert. Its idempotency key is the alert's id (the
 * same for every data plane that saw the crossing), so a stream entry read twice (a worker died
 * before acknowledging it, a data plane retried its XADD) is admitted once per endpoint.
 */
export function quotaAlertEvent(alert: QuotaAlert): OwnEventInput {
  return {
    type: QUOTA_THRESHOLD_EVENT,
    payload: {
      tenantId: alert.tenantId,
      policy: alert.policy,
      rule: alert.rule,
      identifier: alert.identifier,
      threshold: alert.threshold,
      limit: alert.limit,
      used: alert.used,
      windowStart: new Date(alert.windowStart).toISOString(),
      windowEnd: new Date(alert.windowEnd).toISOString(),
      at: new Date(alert.at).toISOString(),
    },
    idempotencyKey: `${QUOTA_THRESHOLD_EVENT}/${alert.id}`,
  };
}
