'use client';

import { LineChart } from '@mantine/charts';
import { Button, Card, Grid, Group, NumberInput, Select, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { QueryState } from '@/components/query-state';
import type { Algorithm, AlgorithmComparisonQuery } from '@/generated/gql/graphql';
import { apiError, formErrors } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { ALGORITHM_LABELS } from '@/lib/rules';
import { PATTERNS, useComparisonParams } from '../_hooks/use-comparison-params';
import { AlgorithmComparisonDocument } from './documents';

const PATTERN_LABELS: Record<(typeof PATTERNS)[number], string> = {
  BOUNDARY_SPIKE: 'Spike at a window edge',
  STEADY_OVER_LIMIT: 'Steady, twice the limit',
  BURSTS: 'Bursts every half window',
};

/** Each algorithm's line; arrivals in grey behind them. */
const COLORS: Record<string, string> = {
  token_bucket: 'blue.6',
  leaky_bucket: 'cyan.7',
  fixed_window: 'red.6',
  sliding_window_log: 'teal.7',
  sliding_window_counter: 'violet.6',
  gcra: 'orange.7',
};

type ComparisonData = NonNullable<AlgorithmComparisonQuery['algorithmComparison']>;

/**
 * The chart's points: arrivals and each algorithm's admissions so far, at the end of each bucket.
 * Totals so far keep the lines apart where per-bucket counts would draw them over each other.
 */
function cumulativeRows(comparison: ComparisonData) {
  const totals = new Map<string, number>();
  const add = (name: string, count: number) => {
    const total = (totals.get(name) ?? 0) + count;
    totals.set(name, total);
    return total;
  };
  return comparison.arrivals.map((arrivals, bucket) => ({
    at: `${formatNumber(((bucket + 1) * comparison.bucketMs) / 1000)} s`,
    arrivals: add('arrivals', arrivals),
    ...Object.fromEntries(
      comparison.algorithms.map((a) => [a.algorithm, add(a.algorithm, a.perBucket[bucket] ?? 0)]),
    ),
  }));
}

const label = (algorithm: string) =>
  ALGORITHM_LABELS[algorithm.toUpperCase() as Algorithm] ?? algorithm;

/**
 * The seed's comparison, run for real: one arrival pattern replayed through each algorithm's Lua
 * with an injected clock on scratch keys (no tenant's counters), all set to the same limit per
 * window; what each has admitted over time, and beside it the most each let through in any window's
 * length ÷ the limit.
 */
export function AlgorithmComparisonView() {
  const [params, setParams] = useComparisonParams();
  const [draft, setDraft] = useState({ limit: params.limit, window: params.window });
  const [{ data, fetching, error }, replay] = useQuery({
    query: AlgorithmComparisonDocument,
    variables: { pattern: params.pattern, limit: params.limit, windowSeconds: params.window },
    requestPolicy: 'network-only',
  });
  const fieldErrors = error ? formErrors(apiError(error).issues, '') : {};
  const comparison = data?.algorithmComparison;
  const rows = comparison ? cumulativeRows(comparison) : [];
  const submit = () => {
    if (draft.limit === params.limit && draft.window === params.window) {
      replay({ requestPolicy: 'network-only' });
    } else void setParams(draft);
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="comparison-heading">
      <Title order={2} size="h4" id="comparison-heading" mb={4}>
        Compare the algorithms
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        One arrival pattern replayed through each algorithm&apos;s Lua script with a simulated
        clock, on scratch keys: every algorithm allows the same limit per window. A fixed window
        lets up to twice its limit through around an edge; a sliding log never more than its limit.
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Group align="flex-end" gap="md" mb="lg">
          <Select
            label="Arrivals"
            data={PATTERNS.map((p) => ({ value: p, label: PATTERN_LABELS[p] }))}
            value={params.pattern}
            onChange={(value) =>
              value && void setParams({ pattern: value as (typeof PATTERNS)[number] })
            }
            allowDeselect={false}
            w={260}
          />
          <NumberInput
            label="Limit per window"
            min={1}
            max={100}
            allowDecimal={false}
            value={draft.limit}
            onChange={(value) => setDraft({ ...draft, limit: Number(value) })}
            error={fieldErrors['limit']}
            w={160}
          />
          <NumberInput
            label="Window (seconds)"
            min={1}
            max={86_400}
            allowDecimal={false}
            value={draft.window}
            onChange={(value) => setDraft({ ...draft, window: Number(value) })}
            error={fieldErrors['windowSeconds']}
            w={160}
          />
          <Button type="submit" loading={fetching}>
            Replay
          </Button>
        </Group>
      </form>
      <QueryState
        fetching={fetching}
        error={Object.keys(fieldErrors).length > 0 ? undefined : error}
        hasData={Boolean(comparison)}
      >
        {comparison && (
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 6 }}>
              <LineChart
                h={300}
                data={rows}
                dataKey="at"
                curveType="linear"
                withDots={false}
                withLegend
                strokeWidth={1.5}
                xAxisProps={{ minTickGap: 32 }}
                lineProps={{ isAnimationActive: false }}
                series={[
                  { name: 'arrivals', label: 'Arrivals', color: 'gray.5', strokeDasharray: '4 4' },
                  ...comparison.algorithms.map((a) => ({
                    name: a.algorithm,
                    label: label(a.algorithm),
                    color: COLORS[a.algorithm] ?? 'gray.7',
                  })),
                ]}
              />
              <Text size="xs" c="dimmed" mt={4}>
                Requests so far, every {formatNumber(comparison.bucketMs / 1000)} s over three
                windows.
              </Text>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 6 }}>
              <Table fz="sm" verticalSpacing={4} aria-label="Most admitted in any window">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Algorithm</Table.Th>
                    <Table.Th ta="right">Admitted</Table.Th>
                    <Table.Th ta="right">Most in a window</Table.Th>
                    <Table.Th ta="right">× limit</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {comparison.algorithms.map((a) => (
                    <Table.Tr key={a.algorithm}>
                      <Table.Td>{label(a.algorithm)}</Table.Td>
                      <Table.Td ta="right">{formatNumber(a.admitted)}</Table.Td>
                      <Table.Td ta="right">{formatNumber(a.mostInAnyWindow)}</Table.Td>
                      <Table.Td ta="right" fw={a.mostInAnyWindowRatio > 1 ? 700 : undefined}>
                        {a.mostInAnyWindowRatio.toFixed(2)}×
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Text size="xs" c="dimmed" mt="xs">
                Of {formatNumber(comparison.arrivals.reduce((sum, n) => sum + n, 0))} arrivals, at{' '}
                {formatNumber(comparison.limit)} per {formatNumber(comparison.windowMs / 1000)} s.
              </Text>
            </Grid.Col>
          </Grid>
        )}
      </QueryState>
    </Card>
  );
}
