'use client';

import { Table, Text, VisuallyHidden } from '@mantine/core';
import { Fragment } from 'react';
import { formatNumber } from '@/lib/format';
import type { DiffHunk, DiffLine } from './line-diff';

const BACKGROUND: Record<DiffLine['kind'], string | undefined> = {
  added: 'var(--mantine-color-green-light)',
  removed: 'var(--mantine-color-red-light)',
  same: undefined,
};
const MARKER: Record<DiffLine['kind'], { sign: string; word: string }> = {
  added: { sign: '+', word: 'added' },
  removed: { sign: '−', word: 'removed' },
  same: { sign: '', word: '' },
};

/**
 * A line diff as people read one: each hunk under the line it starts at, removed lines in red and
 * added ones in green (and said, for screen readers), with their numbers before and after.
 */
export function LineDiffView({
  hunks,
  caption,
  headings = true,
}: {
  hunks: readonly DiffHunk[];
  caption: string;
  /** Whether to head each hunk with where it starts (a whole text shown needs none). */
  headings?: boolean;
}) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table
        ff="monospace"
        fz="xs"
        verticalSpacing={0}
        horizontalSpacing="xs"
        withRowBorders={false}
        layout="fixed"
      >
        <caption>
          <VisuallyHidden>{caption}</VisuallyHidden>
        </caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={48}>
              <VisuallyHidden>Line before</VisuallyHidden>
            </Table.Th>
            <Table.Th w={48}>
              <VisuallyHidden>Line after</VisuallyHidden>
            </Table.Th>
            <Table.Th w={24}>
              <VisuallyHidden>Change</VisuallyHidden>
            </Table.Th>
            <Table.Th>
              <VisuallyHidden>Text</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {hunks.map((hunk) => (
            <Fragment key={`${hunk.beforeStart}:${hunk.afterStart}`}>
              {headings && (
                <Table.Tr>
                  <Table.Td colSpan={4} py={4}>
                    <Text size="xs" c="dimmed" ff="sans-serif">
                      From line {formatNumber(hunk.beforeStart)} before, line{' '}
                      {formatNumber(hunk.afterStart)} after
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {hunk.lines.map((line, i) => (
                <Table.Tr key={i} bg={BACKGROUND[line.kind]} data-kind={line.kind}>
                  <Table.Td ta="right">{line.before ?? ''}</Table.Td>
                  <Table.Td ta="right">{line.after ?? ''}</Table.Td>
                  <Table.Td>
                    <span aria-hidden>{MARKER[line.kind].sign}</span>
                    {MARKER[line.kind].word && (
                      <VisuallyHidden>{MARKER[line.kind].word}</VisuallyHidden>
                    )}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                    {line.text}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
