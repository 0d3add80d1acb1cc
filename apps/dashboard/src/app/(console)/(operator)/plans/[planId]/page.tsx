'use client';

import { Alert, Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import NextLink from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { CountersResetList } from '@/components/counters-reset-list';
import { PageHeader } from '@/components/page-header';
import { EmptyState, QueryState } from '@/components/query-state';
import { TypedConfirmModal } from '@/components/typed-confirm-modal';
import { apiError } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { DeletePlanDocument, PlanDocument } from '../_components/documents';
import { describeChange, type TemplateChange } from './_components/change-result';
import { DeleteTemplateModal } from './_components/delete-template-modal';
import { PlanSettingsModal } from './_components/plan-settings-modal';
import { TemplateCard, type PlanTemplate } from './_components/template-card';
import { ruleReading } from '@/components/policy-editor/rule-reading';
import { SettleCandidatesModal } from '@/components/shadow-trial/settle-candidates-modal';
import { TryInShadowModal } from '@/components/shadow-trial/try-in-shadow-modal';
import { ALGORITHM_LABELS } from '@/lib/rules';
import { TemplateModal } from './_components/template-modal';

type Dialog =
  | { kind: 'settings' }
  | { kind: 'delete-plan' }
  | { kind: 'new-template' }
  | { kind: 'edit-template'; template: PlanTemplate }
  | { kind: 'delete-template'; template: PlanTemplate }
  | { kind: 'try-template'; template: PlanTemplate }
  | { kind: 'apply' | 'discard'; template: PlanTemplate };

export default function PlanPage() {
  const { planId } = useParams<{ planId: string }>();
  const router = useRouter();
  const [{ data, fetching, error }] = useQuery({ query: PlanDocument, variables: { id: planId } });
  const [deleted, deletePlan] = useMutation(DeletePlanDocument);
  const [dialog, setDialog] = useState<Dialog>();
  const [deleteFailure, setDeleteFailure] = useState<string>();
  const [change, setChange] = useState<{ title: string; result: TemplateChange }>();
  const plan = data?.plan;
  const tenantCount = plan?.tenantCount ?? 0;

  const changed = (title: string) => (result: TemplateChange) => {
    setDialog(undefined);
    // the page's alert says it, with what the change did to the tenants
    setChange({ title, result });
  };
  const removePlan = async () => {
    if (!plan) return;
    const result = await deletePlan({ id: plan.id }, { additionalTypenames: ['Plan'] });
    if (result.error) {
      setDeleteFailure(apiError(result.error).message);
      return;
    }
    notifications.show({ message: `The plan ${plan.name} is deleted.` });
    router.push('/plans');
  };

  return (
    <>
      <PageHeader
        title={plan?.name ?? 'Plan'}
        description={
          <>
            <Anchor component={NextLink} href="/plans" size="sm" underline="always">
              Plans
            </Anchor>
            {plan && ` › ${plan.slug}${plan.description ? ` · ${plan.description}` : ''}`}
          </>
        }
        actions={
          plan && (
            <>
              <Button variant="default" onClick={() => setDialog({ kind: 'settings' })}>
                Edit the plan
              </Button>
              <Button onClick={() => setDialog({ kind: 'new-template' })}>New template</Button>
              <Button
                variant="subtle"
                color="red"
                onClick={() => {
                  setDeleteFailure(undefined);
                  setDialog({ kind: 'delete-plan' });
                }}
              >
                Delete the plan
              </Button>
            </>
          )
        }
      />
      <QueryState fetching={fetching} error={error} hasData={Boolean(plan)}>
        {plan && (
          <Stack gap="md">
            <Group gap="xl">
              <Text size="sm">
                <Text span fw={600}>
                  {formatNumber(tenantCount)}
                </Text>{' '}
                tenant{tenantCount === 1 ? '' : 's'} on it
              </Text>
              <Text size="sm">
                Sliding log cap{' '}
                <Text span fw={600}>
                  {formatNumber(plan.slidingLogLimitCap)}
                </Text>{' '}
                per window ({plan.slidingLogMaxLimit === null ? 'the platform’s' : 'the plan’s'})
              </Text>
              <Text size="sm">
                Counter resets:{' '}
                <Text span fw={600}>
                  {plan.tenantCounterResets ? 'tenant admins and operators' : 'operators only'}
                </Text>
              </Text>
            </Group>
            {change && (
              <Alert
                color="teal"
                title={change.title}
                withCloseButton
                closeButtonLabel="Dismiss"
                onClose={() => setChange(undefined)}
              >
                {describeChange(change.result)}
              </Alert>
            )}
            {change && <CountersResetList resets={change.result.countersReset} />}
            {plan.policies.length === 0 ? (
              <Card withBorder>
                <EmptyState title="No policy templates yet">
                  Add one with “New template”: every tenant on the plan gets it, and may change what
                  it opens to them.
                </EmptyState>
              </Card>
            ) : (
              plan.policies.map((template) => (
                <TemplateCard
                  key={template.id}
                  template={template}
                  onEdit={() => setDialog({ kind: 'edit-template', template })}
                  onDelete={() => setDialog({ kind: 'delete-template', template })}
                  onTry={() => setDialog({ kind: 'try-template', template })}
                  onSettle={(kind) => setDialog({ kind, template })}
                />
              ))
            )}
          </Stack>
        )}
      </QueryState>
      {plan && dialog?.kind === 'settings' && (
        <PlanSettingsModal
          plan={plan}
          platformCap={plan.slidingLogMaxLimit === null ? plan.slidingLogLimitCap : undefined}
          onClose={() => setDialog(undefined)}
        />
      )}
      {plan && (dialog?.kind === 'new-template' || dialog?.kind === 'edit-template') && (
        <TemplateModal
          planId={plan.id}
          template={dialog.kind === 'edit-template' ? dialog.template : undefined}
          onClose={() => setDialog(undefined)}
          onSaved={(name, result) =>
            changed(
              dialog.kind === 'edit-template'
                ? `The template ${name} is saved.`
                : `The template ${name} is created.`,
            )(result)
          }
        />
      )}
      {dialog?.kind === 'try-template' && (
        <TryInShadowModal
          policy={dialog.template}
          template
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
          policy={dialog.template}
          template
          read={(rule) => ruleReading(rule) ?? ALGORITHM_LABELS[rule.algorithm]}
          onClose={() => setDialog(undefined)}
          onSettled={({ message, countersReset, tenants }) =>
            changed(message)({
              countersReset,
              // a template's candidates: the API always counts its tenants
              tenantsRepublished: tenants?.republished ?? 0,
              tenantsTrimmed: tenants?.trimmed ?? 0,
            })
          }
        />
      )}
      {dialog?.kind === 'delete-template' && (
        <DeleteTemplateModal
          template={dialog.template}
          tenantCount={tenantCount}
          onClose={() => setDialog(undefined)}
          onDeleted={changed(`The template ${dialog.template.name} is deleted.`)}
        />
      )}
      {plan && (
        <TypedConfirmModal
          opened={dialog?.kind === 'delete-plan'}
          onClose={() => setDialog(undefined)}
          title={`Delete the plan ${plan.name}`}
          word={plan.slug}
          action="Delete the plan"
          onConfirm={() => void removePlan()}
          pending={deleted.fetching}
          failure={deleteFailure}
        >
          The plan and its policy templates are deleted. A plan with tenants on it cannot be: move
          them to another plan first. The audit log keeps its history.
        </TypedConfirmModal>
      )}
    </>
  );
}
