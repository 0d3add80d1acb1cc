import type { CounterResetView } from '@/components/counters-reset-list';
import { formatNumber } from '@/lib/format';

/** What the API answered to a change of a template (`PlanPolicyPayload`). */
export interface TemplateChange {
  tenantsRepublished: number;
  tenantsTrimmed: number;
  countersReset: readonly CounterResetView[];
}

const tenants = (n: number) => `${formatNumber(n)} tenant${n === 1 ? '' : 's'}`;

/** "Republished for 2 tenants; 1 tenant's changes trimmed to fit." */
export function describeChange(change: TemplateChange): string {
  const republished =
    change.tenantsRepublished === 0
      ? 'No tenant’s policies changed.'
      : `Republished for ${tenants(change.tenantsRepublished)}.`;
  if (change.tenantsTrimmed === 0) return republished;
  return `${republished} ${tenants(change.tenantsTrimmed)} had changes or overrides that no longer fitted: they were trimmed (see the audit log).`;
}
