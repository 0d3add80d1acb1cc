'use client';

import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import Link from 'next/link';
import { useParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { newOverridePath, tenantPath } from '@/components/navigation';
import { PageHeader } from '@/components/page-header';
import { EmptyState, QueryState } from '@/components/query-state';
import { useSession } from '@/lib/session';
import { NETWORK_ONLY, useRefresh } from '@/lib/use-refresh';
import { IdentifierPoliciesDocument, IdentifierStateDocument } from './_components/documents';
import { IdentifierLookup } from './_components/identifier-lookup';
import { IdentifierNow } from './_components/identifier-now';
import { MatchingOverrides } from './_components/matching-overrides';
import { RecentDecisions } from './_components/recent-decisions';
import { ResetCountersModal } from './_components/reset-counters-modal';
import { useIdentifierParams } from './_hooks/use-identifier-params';

/** The state and the log are read again this often (ms). */
const REFRESH_MS = 2000;

export default function IdentifierPage() {
  const { tenantId } = useParams<{ tenantId: string }>();
  const writer = useSession().canWrite(tenantId);
  const [params, setParams] = useIdentifierParams();
  const [policies] = useQuery({ query: IdentifierPoliciesDocument, variables: { tenantId } });
  const names = policies.data?.effectivePolicies.map((p) => p.name) ?? [];
  const policy = params.policy ?? names[0];
  const { identifier, cost } = params;
  const [{ data, fetching, error }, reexecute] = useQuery({
    query: IdentifierStateDocument,
    variables: { tenantId, policy: policy ?? '', identifier, cost },
    pause: policy === undefined || identifier === '',
    context: NETWORK_ONLY,
  });
  useRefresh(reexecute, policy && identifier ? REFRESH_MS : undefined);
  const [readAt, setReadAt] = useState<Date>();
  useEffect(() => {
    if (data) setReadAt(new Date());
  }, [data]);
  const [resetting, setResetting] = useState(false);
  const [resetDone, setResetDone] = useState<string>();
  const state = data?.identifierState;
  const overrideHref = writer
    ? (who: string) => newOverridePath(tenantId, policy ?? '', who)
    : undefined;
  const applied = state?.overrides.find((o) => o.id === state.now.overrideId);

  return (
    <>
      <PageHeader
        title="Identifier"
        description="One of your callers under one policy: what each rule holds for it now and what its next check would get, the overrides that match it, and its latest decisions."
      />
      <Stack gap="lg">
        <QueryState
          fetching={policies.fetching}
          error={policies.error}
          hasData={policies.data !== undefined}
        >
          {policy === undefined ? (
            <Card withBorder>
              <EmptyState title="No policy yet">
                An identifier is limited by a published policy: create one on the Policies page
                first.
              </EmptyState>
            </Card>
          ) : (
            <IdentifierLookup
              key={`${policy}\u0000${identifier}\u0000${cost}`}
              policies={names}
              target={{ policy, identifier, cost }}
              onLookUp={(target) => {
                setResetDone(undefined);
                void setParams(target);
              }}
            />
          )}
        </QueryState>
        {policy !== undefined && identifier === '' && (
          <Card withBorder>
            <EmptyState title="Which identifier?">
              Enter one as your services send it, or open one from the overview&apos;s most denied
              identifiers or the request log.
            </EmptyState>
          </Card>
        )}
        {policy !== undefined && identifier !== '' && (
          <QueryState fetching={fetching} error={error} hasData={state !== undefined}>
            {state && (
              <>
                <Group justify="space-between" align="center">
                  <Title order={2} size="h3" ff="monospace">
                    {state.identifier}
                  </Title>
                  <Group gap="sm">
                    {overrideHref && (
                      <Button component={Link} href={overrideHref(state.identifier)}>
                        Create an override
                      </Button>
                    )}
                    {state.canReset && (
                      <Button color="red" variant="light" onClick={() => setResetting(true)}>
                        Reset counters
                      </Button>
                    )}
                  </Group>
                </Group>
                {writer && !state.canReset && (
                  <Text size="sm" c="dimmed">
                    Resetting counters is left to operators on your plan: a reset hands the
                    identifier its whole quota again.
                  </Text>
                )}
                {resetDone && (
                  <Alert
                    color="teal"
                    title="Counters reset"
                    withCloseButton
                    closeButtonLabel="Dismiss"
                    onClose={() => setResetDone(undefined)}
                  >
                    {resetDone}
                  </Alert>
                )}
                <IdentifierNow
                  now={state.now}
                  next={state.next}
                  cost={cost}
                  overrideLabel={applied?.identifier}
                  updatedAt={readAt}
                />
                <MatchingOverrides
                  identifier={state.identifier}
                  overrides={state.overrides}
                  appliedId={state.now.overrideId}
                  overridesHref={`${tenantPath(tenantId, '/overrides')}?policy=${encodeURIComponent(policy)}`}
                />
                <RecentDecisions
                  tenantId={tenantId}
                  policy={policy}
                  identifier={state.identifier}
                  refreshMs={REFRESH_MS}
                  logHref={`${tenantPath(tenantId, '/log')}?policy=${encodeURIComponent(policy)}&identifier=${encodeURIComponent(state.identifier)}`}
                  overrideHref={overrideHref}
                />
                {resetting && (
                  <ResetCountersModal
                    tenantId={tenantId}
                    policy={policy}
                    identifier={state.identifier}
                    onClose={() => setResetting(false)}
                    onReset={(deleted) => {
                      setResetting(false);
                      setResetDone(
                        deleted === 0
                          ? `${state.identifier} had nothing counted under ${policy}: nothing to reset.`
                          : `${state.identifier} starts afresh under ${policy} (${deleted} counter ${deleted === 1 ? 'key' : 'keys'} deleted).`,
                      );
                      reexecute(NETWORK_ONLY);
                    }}
                  />
                )}
              </>
            )}
          </QueryState>
        )}
      </Stack>
    </>
  );
}
