'use client';

import { Alert, Badge, Card, Group, List, Stack, Text } from '@mantine/core';
import { CountersResetList, type CounterResetView } from '@/components/counters-reset-list';
import type { DocumentChangeKind } from '@/generated/gql/graphql';
import { formatNumber } from '@/lib/format';
import type { DocumentIssue } from './document-issues';
import { jsonText, lineDiff } from './line-diff';
import { LineDiffView } from './line-diff-view';

export interface DocumentChange {
  path: string;
  kind: DocumentChangeKind;
  before?: string | null;
  after?: string | null;
}

const KIND: Record<DocumentChangeKind, { color: string; label: string }> = {
  ADDED: { color: 'green', label: 'added' },
  CHANGED: { color: 'blue', label: 'changed' },
  REMOVED: { color: 'red', label: 'removed' },
};

/** Where a document's issues are and what they say: a refused import or rollback. */
export function DocumentIssues({ issues, title }: { issues: DocumentIssue[]; title: string }) {
  return (
    <Alert color="red" role="alert" title={title}>
      <List size="sm" spacing={4}>
        {issues.map((issue) => (
          <List.Item key={`${issue.where}:${issue.message}`}>
            <Text span fw={600} size="sm">
              {issue.where}
            </Text>
            {issue.line !== null && ` (line ${formatNumber(issue.line)})`}: {issue.message}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/**
 * What an import or a rollback would change (a dry run's answer): each policy, change or override
 * added, changed or removed, its values before and after as a line diff, and the counters that
 * would start afresh.
 */
export function ChangePreview({
  changes,
  countersReset,
}: {
  changes: readonly DocumentChange[];
  countersReset: readonly CounterResetView[];
}) {
  if (changes.length === 0) {
    return (
      <Alert color="gray" title="No difference">
        The configuration would stay as it is: nothing to apply.
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      <Text size="sm" fw={600}>
        {changes.length === 1 ? '1 change' : `${formatNumber(changes.length)} changes`}
      </Text>
      {changes.map((change) => (
        <Card key={change.path} withBorder p="xs">
          <Group gap="xs" mb={4}>
            <Badge color={KIND[change.kind].color} variant="light">
              {KIND[change.kind].label}
            </Badge>
            <Text ff="monospace" size="sm">
              {change.path}
            </Text>
          </Group>
          {(change.before || change.after) && (
            <LineDiffView
              hunks={lineDiff(jsonText(change.before), jsonText(change.after), 10_000)}
              caption={`${change.path}, before and after`}
              headings={false}
            />
          )}
        </Card>
      ))}
      <CountersResetList resets={countersReset} preview />
    </Stack>
  );
}
