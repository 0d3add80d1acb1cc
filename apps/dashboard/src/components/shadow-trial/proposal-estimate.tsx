'use client';

import { Alert, Card, Table, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import type { RuleInput } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { NETWORK_ONLY, useRefresh } from '@/lib/use-refresh';
import { EstimateRulesDocument } from './documents';

/** The API replays at most 8 rules: 4 proposals and the live rules they replace. */
const MAX_PROPOSALS = 4;
/** Spend is flushed every second: read again while the editor is open. */
const REFRESH_MS = 5000;

/** What one estimate replays: each proposal, and the live rule it replaces (if any). */
interface Replay {
  proposals: RuleInput[];
  replaced: (RuleInput | null)[];
  /** Proposals left out beyond `MAX_PROPOSALS`. */
  omitted: number;
}

function replayOf(live: RuleInput[], proposed: RuleInput[]): Replay {
  // a candidate's link and bounds mean nothing to a replay
  const bare = (rule: RuleInput): RuleInput => ({ ...rule, replaces: null, tenantBounds: null });
  const eligible = proposed.filter((rule) => rule.algorithm !== 'CONCURRENCY');
  const proposals = eligible.slice(0, MAX_PROPOSALS);
  return {
    proposals: proposals.map(bare),
    replaced: proposals.map((rule) => {
      const match = live.find((l) => l.name === rule.replaces && l.algorithm !== 'CONCURRENCY');
      return match ? bare(match) : null;
    }),
    omitted: eligible.length - proposals.length,
  };
}

/**
 * Before a proposal runs: how many of the policy's heaviest identifiers of the last 15 minutes
 * would have exceeded each proposed rule, beside the live rule it would replace, replayed by the
 * control plane from what they spent per minute. Read again as the proposal changes (after a
 * pause in typing) and every 5 s; figures of an earlier proposal are dimmed until the new ones come.
 */
export function ProposalEstimate({
  tenantId,
  policy,
  live,
  proposed,
}: {
  tenantId: string;
  policy: string;
  live: RuleInput[];
  /** Undefined while the proposal has empty fields. */
  proposed: RuleInput[] | undefined;
}) {
  const current = JSON.stringify(proposed ? replayOf(live, proposed) : null);
  const [debounced] = useDebouncedValue(current, 500);
  const replay = useMemo(() => JSON.parse(debounced) as Replay | null, [debounced]);
  // the answer lists the rules in this order: proposals, then the live ones they replace
  const rules = useMemo(
    () =>
      replay
        ? [
            ...replay.proposals,
            ...replay.replaced.filter((rule): rule is RuleInput => rule !== null),
          ]
        : [],
    [replay],
  );
  const variables = useMemo(
    () => ({ input: { tenantId, policy, rules } }),
    [tenantId, policy, rules],
  );
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: EstimateRulesDocument,
    variables,
    pause: rules.length === 0,
    context: NETWORK_ONLY,
  });
  useRefresh(reexecute, rules.length > 0 ? REFRESH_MS : undefined);
  const estimate = rules.length > 0 ? data?.estimateRules : undefined;
  const stale = current !== debounced || (fetching && !estimate);

  const body = () => {
    if (!replay || replay.proposals.length === 0) {
      return (
        <Text size="sm" c="dimmed">
          Fill in a proposal (concurrency rules aside) to see how the heaviest identifiers would
          have fared.
        </Text>
      );
    }
    if (error && !estimate) {
      return (
        <Alert color="yellow" p="xs">
          {apiError(error).message}
        </Alert>
      );
    }
    if (!estimate) {
      return (
        <Text size="sm" c="dimmed">
          Replaying…
        </Text>
      );
    }
    if (estimate.identifiers === 0) {
      return (
        <Text size="sm" c="dimmed">
          No identifier spent anything on this policy in the last 15 minutes: nothing to replay.
        </Text>
      );
    }
    let liveIndex = replay.proposals.length;
    const rows = replay.proposals.map((rule, i) => {
      const replaced = replay.replaced[i];
      return {
        rule,
        replaced,
        mine: estimate.rules[i],
        theirs: replaced ? estimate.rules[liveIndex++] : undefined,
      };
    });
    const longer = estimate.rules.filter((rule) => rule.outlastsRange).map((rule) => rule.name);
    return (
      <>
        <Text size="sm" c="dimmed" mb="xs">
          {estimate.identifiers === 1
            ? 'One identifier spent anything here: its spend per minute replayed through each rule, and whether the rule would have denied some of it.'
            : `The ${formatNumber(estimate.identifiers)} heaviest identifiers (by what they spent), their spend per minute replayed through each rule: how many it would have denied some of.`}
        </Text>
        <Table
          verticalSpacing={4}
          aria-labelledby="proposal-estimate"
          aria-busy={stale}
          style={{ opacity: stale ? 0.5 : 1 }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Proposed</Table.Th>
              <Table.Th ta="right">Would have exceeded</Table.Th>
              <Table.Th>The live rule</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map(({ rule, replaced, mine, theirs }, i) => (
              <Table.Tr key={i}>
                <Table.Td>{rule.name}</Table.Td>
                <Table.Td ta="right">
                  {mine ? formatNumber(mine.wouldExceed) : '–'}
                  {mine && mine.examples.length > 0 && (
                    <Text size="xs" c="dimmed">
                      {mine.examples.join(', ')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {replaced && theirs ? (
                    `${replaced.name}: ${formatNumber(theirs.wouldExceed)}`
                  ) : (
                    <Text size="sm" c="dimmed" span>
                      a new rule
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {longer.length > 0 && (
          <Text size="xs" c="dimmed" mt={4}>
            {[...new Set(longer)].join(', ')}: a window longer than 15 minutes, so what was spent
            before them is not counted (they would deny at least this many).
          </Text>
        )}
        {replay.omitted > 0 && (
          <Text size="xs" c="dimmed" mt={4}>
            {replay.omitted} more {replay.omitted === 1 ? 'proposal is' : 'proposals are'} not
            estimated (4 at most).
          </Text>
        )}
      </>
    );
  };

  return (
    <Card withBorder component="section" aria-labelledby="proposal-estimate" p="sm">
      <Title order={3} size="h6" id="proposal-estimate">
        Against the last 15 minutes
      </Title>
      {body()}
    </Card>
  );
}
