'use client';

import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useParams } from 'next/navigation';
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { CountersResetList, type CounterResetView } from '@/components/counters-reset-list';
import { PageHeader } from '@/components/page-header';
import { Pager } from '@/components/pager';
import { EmptyState, QueryState } from '@/components/query-state';
import type { VersionReason } from '@/generated/gql/graphql';
import { formatDateTime } from '@/lib/format';
import { useSession } from '@/lib/session';
import {
  PolicyVersionsDocument,
  VersionChoicesDocument,
  VersionMembersDocument,
  VersionOperatorsDocument,
} from './_components/documents';
import { ExportButton, ExportMenu } from './_components/export-menu';
import { ImportModal } from './_components/import-modal';
import { RollbackModal, type PolicyChangeApplied } from './_components/rollback-modal';
import { VersionCompare } from './_components/version-compare';
import { useVersionFilters } from './_hooks/use-version-filters';

const REASONS: Record<VersionReason, { label: string; color: string }> = {
  PUBLISH: { label: 'change', color: 'blue' },
  IMPORT: { label: 'import', color: 'grape' },
  ROLLBACK: { label: 'rollback', color: 'orange' },
};

type Dialog = { kind: 'import' } | { kind: 'rollback'; version: number };

export default function VersionsPage() {
  const { tenantId } = useParams<{ tenantId: string }>();
  const { canWrite, isOperator, user } = useSession();
  const writer = canWrite(tenantId);
  const { filters, setAfter, compare } = useVersionFilters();
  const [dialog, setDialog] = useState<Dialog>();
  const [resets, setResets] = useState<readonly CounterResetView[]>([]);
  const [members] = useQuery({ query: VersionMembersDocument, variables: { tenantId } });
  const [operators] = useQuery({ query: VersionOperatorsDocument, pause: !isOperator });
  const [choices] = useQuery({ query: VersionChoicesDocument, variables: { tenantId } });
  const [{ data, fetching, error }] = useQuery({
    query: PolicyVersionsDocument,
    variables: { tenantId, after: filters.after },
  });
  const versions = data?.policyVersions;
  const choiceList = choices.data?.policyVersions.nodes ?? [];
  const latest = choiceList[0]?.version ?? null;

  const names = useMemo(() => {
    const known = new Map<string, string>();
    for (const m of [
      ...(members.data?.members.nodes ?? []),
      ...(operators.data?.operators.nodes ?? []),
    ]) {
      known.set(m.userId, m.name);
    }
    known.set(user.id, `${user.name} (you)`);
    return known;
  }, [members.data, operators.data, user]);
  const author = (id: string | null | undefined) =>
    id === null || id === undefined
      ? 'the system'
      : (names.get(id) ?? 'an operator or former member');

  // what is compared: the URL's choice, else the latest version against the one before it
  const to = filters.to ?? latest;
  const from =
    filters.from ?? (filters.to === null && latest !== null && latest > 1 ? latest - 1 : null);

  const applied = ({ message, countersReset }: PolicyChangeApplied) => {
    setDialog(undefined);
    setResets(countersReset);
    notifications.show({ message });
    // the comparison follows to the new latest version
    compare(null, null);
  };

  const showChanges = (version: number) => {
    compare(version > 1 ? version - 1 : null, version);
    document.getElementById('compare')?.scrollIntoView({ behavior: 'smooth' });
  };

  return (
    <>
      <PageHeader
        title="Policy versions"
        description="Every change to what your checks use is a numbered version. Compare any two, roll back to one, or keep your configuration in git with export and import."
        actions={
          <>
            <ExportButton tenantId={tenantId} />
            {writer && <Button onClick={() => setDialog({ kind: 'import' })}>Import…</Button>}
          </>
        }
      />
      <Stack gap="md">
        <CountersResetList resets={resets} onClose={() => setResets([])} />
        <Card withBorder p={0}>
          <QueryState fetching={fetching} error={error} hasData={Boolean(versions)}>
            {versions && versions.nodes.length === 0 ? (
              <EmptyState title="No versions yet">
                The first version is written when the tenant&apos;s policies are first published.
              </EmptyState>
            ) : (
              <Table.ScrollContainer minWidth={760}>
                <Table verticalSpacing="xs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Version</Table.Th>
                      <Table.Th>What</Table.Th>
                      <Table.Th>By</Table.Th>
                      <Table.Th>When</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>Actions</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {versions?.nodes.map((v) => (
                      <Table.Tr key={v.version}>
                        <Table.Td>
                          <Group gap="xs">
                            <Text fw={600}>{v.version}</Text>
                            {v.version === latest && (
                              <Badge variant="outline" color="green" size="sm">
                                current
                              </Badge>
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs">
                            <Badge color={REASONS[v.reason].color} variant="light">
                              {REASONS[v.reason].label}
                            </Badge>
                            {v.rolledBackFrom !== null && v.rolledBackFrom !== undefined && (
                              <Text size="sm">to version {v.rolledBackFrom}</Text>
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td>{author(v.createdById)}</Table.Td>
                        <Table.Td>{formatDateTime(v.createdAt)}</Table.Td>
                        <Table.Td>
                          <Group gap={4} justify="flex-end" wrap="nowrap">
                            <Button
                              size="xs"
                              variant="light"
                              aria-label={`Changes of version ${v.version}`}
                              onClick={() => showChanges(v.version)}
                            >
                              Changes
                            </Button>
                            {writer && v.version !== latest && (
                              <Button
                                size="xs"
                                variant="default"
                                aria-label={`Roll back to version ${v.version}`}
                                onClick={() => setDialog({ kind: 'rollback', version: v.version })}
                              >
                                Roll back…
                              </Button>
                            )}
                            <ExportMenu
                              tenantId={tenantId}
                              version={v.version}
                              target={
                                <ActionIcon
                                  variant="subtle"
                                  aria-label={`Download version ${v.version}`}
                                >
                                  <span aria-hidden>⤓</span>
                                </ActionIcon>
                              }
                            />
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </QueryState>
        </Card>
        <Pager
          connection={versions}
          after={filters.after}
          onAfterChange={setAfter}
          noun="versions"
        />
        <VersionCompare
          tenantId={tenantId}
          from={from}
          to={to}
          choices={choiceList}
          onChange={compare}
        />
      </Stack>
      {dialog?.kind === 'import' && (
        <ImportModal tenantId={tenantId} onClose={() => setDialog(undefined)} onApplied={applied} />
      )}
      {dialog?.kind === 'rollback' && (
        <RollbackModal
          tenantId={tenantId}
          version={dialog.version}
          onClose={() => setDialog(undefined)}
          onApplied={applied}
        />
      )}
    </>
  );
}
