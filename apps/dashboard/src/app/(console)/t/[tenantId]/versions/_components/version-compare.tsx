'use client';

import { ActionIcon, Badge, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { EmptyState, QueryState } from '@/components/query-state';
import { formatDateTime, formatNumber } from '@/lib/format';
import { ExportPoliciesDocument } from './documents';
import { diffStats, lineDiff } from './line-diff';
import { LineDiffView } from './line-diff-view';

/** One version's document (YAML, as exported): a version never changes, so it is read once. */
function useVersionDocument(tenantId: string, version: number | null) {
  const [result] = useQuery({
    query: ExportPoliciesDocument,
    variables: { tenantId, format: 'YAML', version },
    pause: version === null,
    requestPolicy: 'cache-first',
  });
  return result;
}

/**
 * Two versions of the tenant's own configuration side by side: the line diff of their exports
 * (the API keeps each version's document), the older on the left of each line.
 */
export function VersionCompare({
  tenantId,
  from,
  to,
  choices,
  onChange,
}: {
  tenantId: string;
  from: number | null;
  to: number | null;
  choices: readonly { version: number; createdAt: string }[];
  onChange: (from: number | null, to: number | null) => void;
}) {
  const before = useVersionDocument(tenantId, from);
  const after = useVersionDocument(tenantId, to);
  const beforeText = before.data?.exportPolicies;
  const afterText = after.data?.exportPolicies;
  const hunks = useMemo(
    () =>
      beforeText === undefined || afterText === undefined ? [] : lineDiff(beforeText, afterText),
    [beforeText, afterText],
  );
  const stats = diffStats(hunks);
  const data = useMemo(() => {
    const listed = choices.map((c) => ({
      value: String(c.version),
      label: `Version ${c.version} · ${formatDateTime(c.createdAt)}`,
    }));
    // a version chosen from a later page of the list is not among the newest 100
    for (const chosen of [from, to]) {
      if (chosen !== null && !choices.some((c) => c.version === chosen)) {
        listed.push({ value: String(chosen), label: `Version ${chosen}` });
      }
    }
    return listed;
  }, [choices, from, to]);
  const pick = (value: string | null) => (value === null ? null : Number(value));

  return (
    <Card withBorder id="compare">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Compare two versions
        </Title>
        <Group align="flex-end" gap="xs">
          <Select
            label="From version"
            placeholder="Choose a version"
            searchable
            data={data}
            value={from === null ? null : String(from)}
            onChange={(value) => onChange(pick(value), to)}
            w={340}
          />
          <ActionIcon
            variant="default"
            size="lg"
            mb={1}
            aria-label="Swap the two versions"
            title="Swap the two versions"
            onClick={() => onChange(to, from)}
          >
            <span aria-hidden>⇄</span>
          </ActionIcon>
          <Select
            label="To version"
            placeholder="Choose a version"
            searchable
            data={data}
            value={to === null ? null : String(to)}
            onChange={(value) => onChange(from, pick(value))}
            w={340}
          />
          {beforeText !== undefined && afterText !== undefined && hunks.length > 0 && (
            <Group gap={4} mb={6}>
              <Badge color="green" variant="light">
                +{formatNumber(stats.added)} {stats.added === 1 ? 'line' : 'lines'}
              </Badge>
              <Badge color="red" variant="light">
                −{formatNumber(stats.removed)} {stats.removed === 1 ? 'line' : 'lines'}
              </Badge>
            </Group>
          )}
        </Group>
        {from === null || to === null ? (
          <Text size="sm" c="dimmed">
            Choose two versions to see what changed between them.
          </Text>
        ) : (
          <QueryState
            fetching={before.fetching || after.fetching}
            error={before.error ?? after.error}
            hasData={beforeText !== undefined && afterText !== undefined}
          >
            {hunks.length === 0 ? (
              <EmptyState title="No difference in the tenant’s configuration">
                {from === to
                  ? 'This is the same version twice: choose another.'
                  : `Versions ${from} and ${to} hold the same policies, changes and overrides of the tenant (a change of the plan’s templates or of the tenant’s status is not in an export).`}
              </EmptyState>
            ) : (
              <LineDiffView
                hunks={hunks}
                caption={`The export of version ${from} compared with version ${to}`}
              />
            )}
          </QueryState>
        )}
      </Stack>
    </Card>
  );
}
