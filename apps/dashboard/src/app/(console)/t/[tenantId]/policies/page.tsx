'use client';

import {
  Button,
  Card,
  Group,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useParams } from 'next/navigation';
import { useState } from 'react';
import { useQuery } from 'urql';
import { CountersResetList, type CounterResetView } from '@/components/counters-reset-list';
import { PageHeader } from '@/components/page-header';
import { EmptyState, QueryState } from '@/components/query-state';
import {
  SettleCandidatesModal,
  type CandidatesSettled,
} from '@/components/shadow-trial/settle-candidates-modal';
import { TryInShadowModal } from '@/components/shadow-trial/try-in-shadow-modal';
import { useSession } from '@/lib/session';
import { ChangePlanPolicyModal, type PolicySaved } from './_components/change-plan-policy-modal';
import { DeletePolicyModal } from './_components/delete-policy-modal';
import { EffectivePoliciesDocument, TenantPoliciesDocument } from './_components/documents';
import { OwnPolicyModal } from './_components/own-policy-modal';
import { changeableRules } from './_components/plan-change';
import { PolicyCard, type EffectivePolicyView } from './_components/policy-card';
import { describeRule } from './_components/policy-reading';
import { ResetPlanPolicyModal } from './_components/reset-plan-policy-modal';
import { ShadowTrial } from './_components/shadow-trial';
import { filterPolicies, usePolicyFilters, type PolicyOrigin } from './_hooks/use-policy-filters';
import { useTrialTotals } from './_hooks/use-trial-totals';

type Dialog =
  | { kind: 'create' }
  | {
      kind: 'change' | 'reset' | 'edit' | 'delete' | 'try' | 'try-plan' | 'apply' | 'discard';
      policy: EffectivePolicyView;
    };

const ORIGIN_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'plan', label: 'Plan' },
  { value: 'own', label: 'Own' },
];

export default function PoliciesPage() {
  const { tenantId } = useParams<{ tenantId: string }>();
  const session = useSession();
  const writer = session.canWrite(tenantId);
  const { filters, setFilter } = usePolicyFilters();
  const [search, setSearch] = useState(filters.search);
  const updateSearch = useDebouncedCallback((value: string) => setFilter({ search: value }), 200);
  const [dialog, setDialog] = useState<Dialog>();
  const [resets, setResets] = useState<readonly CounterResetView[]>([]);
  const [{ data, fetching, error }] = useQuery({
    query: EffectivePoliciesDocument,
    variables: { tenantId },
  });
  // the stored values of the tenant's own policies, for the editor
  const [own] = useQuery({
    query: TenantPoliciesDocument,
    variables: { tenantId },
    pause: !writer,
  });
  const all = data?.effectivePolicies;
  const stored = (policy: EffectivePolicyView) =>
    own.data?.tenantPolicies.find((p) => p.id === policy.id);
  const shown = all ? filterPolicies(all, filters) : [];
  const filtered = Boolean(filters.search || filters.origin);
  const trials = useTrialTotals(
    tenantId,
    shown.some((policy) => policy.rules.some((rule) => rule.candidate)),
  );

  const saved = ({ message, countersReset }: PolicySaved | CandidatesSettled) => {
    setDialog(undefined);
    setResets(countersReset);
    notifications.show({ message });
  };

  const tried = dialog?.kind === 'try' ? stored(dialog.policy) : undefined;

  /** The tenant's candidates for a plan's policy, which its writers settle. */
  const tenantCandidates = (policy: EffectivePolicyView) =>
    policy.source === 'PLAN' &&
    policy.rules.some((rule) => rule.candidate && rule.source === 'TENANT');

  /** A template's own candidates are the operators' to settle (for every tenant on the plan). */
  const maySettle = (policy: EffectivePolicyView) =>
    policy.source === 'TENANT' || tenantCandidates(policy) ? writer : session.isOperator;

  const trialOf = (policy: EffectivePolicyView) => (
    <ShadowTrial
      policy={policy}
      totals={trials.totalsOf(policy.name)}
      error={trials.error}
      actions={
        maySettle(policy) && (
          <>
            <Button
              variant="default"
              size="xs"
              onClick={() => setDialog({ kind: 'discard', policy })}
            >
              Discard candidates<VisuallyHidden> of {policy.name}</VisuallyHidden>
            </Button>
            <Button size="xs" onClick={() => setDialog({ kind: 'apply', policy })}>
              Apply candidates<VisuallyHidden> of {policy.name}</VisuallyHidden>
            </Button>
          </>
        )
      }
    />
  );

  const actionsOf = (policy: EffectivePolicyView) => {
    if (!writer) return undefined;
    if (policy.source === 'TENANT') {
      return (
        <>
          <Button
            variant="subtle"
            size="xs"
            color="red"
            onClick={() => setDialog({ kind: 'delete', policy })}
          >
            Delete<VisuallyHidden> {policy.name}</VisuallyHidden>
          </Button>
          <Button
            variant="light"
            size="xs"
            disabled={!stored(policy)}
            onClick={() => setDialog({ kind: 'try', policy })}
          >
            Try in shadow<VisuallyHidden> {policy.name}</VisuallyHidden>
          </Button>
          <Button
            size="xs"
            disabled={!stored(policy)}
            onClick={() => setDialog({ kind: 'edit', policy })}
          >
            Edit<VisuallyHidden> {policy.name}</VisuallyHidden>
          </Button>
        </>
      );
    }
    if (changeableRules(policy.rules).length === 0) return undefined;
    return (
      <>
        {policy.changed && (
          <Button variant="default" size="xs" onClick={() => setDialog({ kind: 'reset', policy })}>
            Back to the plan’s values<VisuallyHidden> of {policy.name}</VisuallyHidden>
          </Button>
        )}
        <Button variant="light" size="xs" onClick={() => setDialog({ kind: 'try-plan', policy })}>
          Try in shadow<VisuallyHidden> {policy.name}</VisuallyHidden>
        </Button>
        <Button size="xs" onClick={() => setDialog({ kind: 'change', policy })}>
          Change values<VisuallyHidden> of {policy.name}</VisuallyHidden>
        </Button>
      </>
    );
  };

  return (
    <>
      <PageHeader
        title="Policies"
        description="The limits your checks are decided by: your plan’s policies, with the values your plan lets you change, and your own policies. Each value says where it comes from."
        actions={
          writer && <Button onClick={() => setDialog({ kind: 'create' })}>New policy</Button>
        }
      />
      <Stack gap="md">
        <CountersResetList resets={resets} onClose={() => setResets([])} />
        <Group align="flex-end">
          <TextInput
            label="Search"
            placeholder="Policy name"
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              updateSearch(event.currentTarget.value);
            }}
            w={260}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="policy-origin-label">
              From
            </Text>
            <SegmentedControl
              aria-labelledby="policy-origin-label"
              data={ORIGIN_OPTIONS}
              value={filters.origin ?? 'all'}
              onChange={(value) =>
                setFilter({ origin: value === 'all' ? null : (value as PolicyOrigin) })
              }
            />
          </Stack>
        </Group>
        <QueryState fetching={fetching} error={error} hasData={Boolean(all)}>
          {all && shown.length === 0 ? (
            <Card withBorder>
              <EmptyState title={filtered ? 'No policy matches' : 'No policies yet'}>
                {filtered
                  ? 'Change the search or the origin.'
                  : `Your plan gives you none, and you have none of your own.${
                      writer ? ' Create one with “New policy”.' : ''
                    }`}
              </EmptyState>
            </Card>
          ) : (
            shown.map((policy) => (
              <PolicyCard
                key={policy.id}
                tenantId={tenantId}
                policy={policy}
                actions={actionsOf(policy)}
                trial={trialOf(policy)}
              />
            ))
          )}
        </QueryState>
      </Stack>
      {(dialog?.kind === 'change' || dialog?.kind === 'try-plan') && (
        <ChangePlanPolicyModal
          tenantId={tenantId}
          policy={dialog.policy}
          purpose={dialog.kind === 'try-plan' ? 'try' : 'change'}
          onClose={() => setDialog(undefined)}
          onSaved={saved}
        />
      )}
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <OwnPolicyModal
          tenantId={tenantId}
          policy={dialog.kind === 'edit' ? stored(dialog.policy) : undefined}
          onClose={() => setDialog(undefined)}
          onSaved={saved}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeletePolicyModal
          policy={dialog.policy}
          onClose={() => setDialog(undefined)}
          onDeleted={saved}
        />
      )}
      {tried && (
        <TryInShadowModal
          policy={tried}
          tenantId={tenantId}
          onClose={() => setDialog(undefined)}
          onTried={(message) => {
            setDialog(undefined);
            notifications.show({ message });
          }}
        />
      )}
      {(dialog?.kind === 'apply' || dialog?.kind === 'discard') && (
        <SettleCandidatesModal
          action={dialog.kind}
          policy={dialog.policy}
          template={dialog.policy.source === 'PLAN' && !tenantCandidates(dialog.policy)}
          tenantChange={tenantCandidates(dialog.policy) ? tenantId : undefined}
          read={describeRule}
          onClose={() => setDialog(undefined)}
          onSettled={saved}
        />
      )}
      {dialog?.kind === 'reset' && (
        <ResetPlanPolicyModal
          tenantId={tenantId}
          policy={dialog.policy}
          onClose={() => setDialog(undefined)}
          onSaved={saved}
        />
      )}
    </>
  );
}
