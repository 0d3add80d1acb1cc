'use client';

import { Alert, Text } from '@mantine/core';

/** Why an editor's save was refused: one line each (`editorFailure`'s lines). */
export function FailureAlert({ title, lines }: { title: string; lines: readonly string[] }) {
  if (lines.length === 0) return null;
  return (
    <Alert color="red" role="alert" title={title}>
      {lines.map((line) => (
        <Text key={line} size="sm">
          {line}
        </Text>
      ))}
    </Alert>
  );
}
