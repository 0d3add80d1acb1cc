'use client';

import { Alert, Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { CombinedError } from 'urql';
import type { UsageBreakdownQuery } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { reasonLabel } from '@/lib/reasons';

type Totals = UsageBreakdownQuery['usageTotals'][number];

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

/** A breakdown's rows, largest first, each with its share of `whole`. */
function Breakdown({
  caption,
  rows,
  whole,
  empty,
}: {
  caption: string;
  rows: readonly { name: string; count: number }[];
  whole: number;
  empty: string;
}) {
  const sorted = rows.filter((r) => r.count > 0).sort((a, b) => b.count - a.count);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {caption}
      </Text>
      {sorted.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Table verticalSpacing={2} fz="sm" aria-label={caption}>
          <Table.Tbody>
            {sorted.map((row) => (
              <Table.Tr key={row.name}>
                <Table.Th scope="row" fw={400}>
                  {row.name}
                </Table.Th>
                <Table.Td ta="right">{formatNumber(row.count)}</Table.Td>
                <Table.Td ta="right" c="dimmed" w={72}>
                  {whole > 0 ? percent.format(row.count / whole) : ''}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/**
 * Why the policy denied over the chart's range: by the rule that refused (concurrency rules
 * included) and by reason code; beside them what was allowed yet would have been denied (in
 * shadow, by candidate rules) or was allowed unchecked (fail-open).
 */
export function WhyDenied({
  policy,
  rangeWords,
  totals,
  error,
}: {
  policy: string;
  rangeWords: string;
  totals: Totals | undefined;
  error: CombinedError | undefined;
}) {
  const headingId = `why-${policy}`;
  const wouldHave = [
    ...(totals?.shadowDeniedByRule ?? []).map((r) => ({
      name: `${r.rule} (shadow)`,
      count: r.count,
    })),
    ...(totals?.candidateDeniedByRule ?? []).map((r) => ({
      name: `${r.rule} (candidate)`,
      count: r.count,
    })),
    { name: 'unchecked (fail-open)', count: totals?.failOpen ?? 0 },
  ];
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        Why {policy} denied
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Over {rangeWords}.
      </Text>
      {totals === undefined ? (
        error ? (
          <Alert color="red" role="alert" title="Could not load">
            {apiError(error).message}
          </Alert>
        ) : (
          <Text size="sm" c="dimmed">
            Reading…
          </Text>
        )
      ) : (
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          <Breakdown
            caption="Denied by rule"
            rows={totals.deniedByRule.map((r) => ({ name: r.rule, count: r.count }))}
            whole={totals.denied}
            empty="No rule denied."
          />
          <Breakdown
            caption="Denied by reason"
            rows={totals.deniedByReason.map((r) => ({
              name: reasonLabel(r.reason),
              count: r.count,
            }))}
            whole={totals.denied}
            empty="Nothing was denied."
          />
          <Breakdown
            caption="Allowed, yet would have been denied"
            rows={wouldHave}
            whole={0}
            empty="None: no shadow or candidate rule would have denied, and Redis answered every check."
          />
        </SimpleGrid>
      )}
    </Card>
  );
}
