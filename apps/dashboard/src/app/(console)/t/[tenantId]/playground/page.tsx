'use client';

import { Alert, Card, Stack, Tabs } from '@mantine/core';
import { useParams } from 'next/navigation';
import { useQuery } from 'urql';
import { PageHeader } from '@/components/page-header';
import { EmptyState, QueryState } from '@/components/query-state';
import { useSession } from '@/lib/session';
import { AlgorithmComparisonView } from './_components/algorithm-comparison';
import { CheckForm } from './_components/check-form';
import { DecisionDetail } from './_components/decision-detail';
import { PlaygroundPoliciesDocument } from './_components/documents';
import { RunResults } from './_components/run-results';
import { usePlayground } from './_hooks/use-playground';
import { usePlaygroundParams } from './_hooks/use-playground-params';

export default function PlaygroundPage() {
  const { tenantId } = useParams<{ tenantId: string }>();
  const canFire = useSession().canWrite(tenantId);
  const [params, setParams] = usePlaygroundParams();
  const [policies] = useQuery({ query: PlaygroundPoliciesDocument, variables: { tenantId } });
  const names = policies.data?.effectivePolicies.map((p) => p.name) ?? [];
  const policy = params.policy ?? names[0];
  const { fire, peek, result, errors, busy } = usePlayground(tenantId);

  return (
    <>
      <PageHeader
        title="Playground"
        description="Fire checks at a policy as a service would, and see each decision with the headers /v1/check sends. Checks spend on scratch identifiers (playground:…) unless you choose a real one; like a service's, they show in the live chart and the request log. Or compare how the algorithms admit the same traffic."
      />
      <Tabs
        value={params.tab}
        onChange={(value) => void setParams({ tab: value === 'compare' ? 'compare' : 'checks' })}
        keepMounted={false}
      >
        <Tabs.List mb="lg">
          <Tabs.Tab value="checks">Fire checks</Tabs.Tab>
          <Tabs.Tab value="compare">Compare algorithms</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="checks">
          <QueryState
            fetching={policies.fetching}
            error={policies.error}
            hasData={policies.data !== undefined}
          >
            {names.length === 0 ? (
              <Card withBorder>
                <EmptyState title="No policy yet">
                  The playground checks a published policy: create one on the Policies page first.
                </EmptyState>
              </Card>
            ) : (
              <Stack gap="lg">
                <CheckForm
                  policies={names}
                  policy={policy}
                  identifier={params.identifier}
                  onPolicyChange={(value) => void setParams({ policy: value })}
                  onIdentifierChange={(value) => void setParams({ identifier: value })}
                  canFire={canFire}
                  busy={busy}
                  errors={errors.fields}
                  onFire={(values) => void fire(values)}
                  onPeek={(values) => void peek(values)}
                />
                {errors.message && (
                  <Alert color="red" role="alert" title="Not done">
                    {errors.message}
                  </Alert>
                )}
                {result?.kind === 'run' && (
                  <RunResults
                    key={result.id}
                    tenantId={tenantId}
                    policy={result.policy}
                    run={result.run}
                  />
                )}
                {result?.kind === 'peek' && (
                  <Card withBorder padding="lg">
                    <DecisionDetail
                      title={`${result.decision.identifier} now (a peek: nothing spent)`}
                      decision={result.decision}
                    />
                  </Card>
                )}
              </Stack>
            )}
          </QueryState>
        </Tabs.Panel>
        <Tabs.Panel value="compare">
          <AlgorithmComparisonView />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
