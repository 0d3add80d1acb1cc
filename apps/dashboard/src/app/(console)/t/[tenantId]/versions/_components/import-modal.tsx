'use client';

import { Alert, Button, FileButton, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useMutation } from 'urql';
import type { ImportPoliciesMutation } from '@/generated/gql/graphql';
import { ChangePreview, DocumentIssues } from './change-preview';
import { refusalOf, type DocumentIssue } from './document-issues';
import { ImportPoliciesDocument } from './documents';
import { documentFormatOf } from './export-file';
import type { PolicyChangeApplied } from './rollback-modal';

/**
 * Imports a document (pasted, or a YAML or JSON file): a dry run first shows what would change and
 * which counters would start afresh, or the document's issues where they are; applying imports
 * exactly the document previewed.
 */
export function ImportModal({
  tenantId,
  onClose,
  onApplied,
}: {
  tenantId: string;
  onClose: () => void;
  onApplied: (applied: PolicyChangeApplied) => void;
}) {
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [previewed, setPreviewed] = useState<{
    text: string;
    result: ImportPoliciesMutation['importPolicies'];
  }>();
  const [issues, setIssues] = useState<DocumentIssue[]>();
  const [{ fetching }, run] = useMutation(ImportPoliciesDocument);
  const [applying, setApplying] = useState(false);
  const outcome = useRef<HTMLDivElement>(null);
  // the dry run's answer is below a long document: bring it into view
  useEffect(() => {
    if (previewed || issues)
      outcome.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [previewed, issues]);

  const send = (dryRun: boolean) =>
    run(
      { input: { tenantId, document: text, format: documentFormatOf(text, fileName), dryRun } },
      dryRun ? {} : { additionalTypenames: ['PolicyVersion', 'Override', 'EffectivePolicy'] },
    );

  const preview = async () => {
    setIssues(undefined);
    setPreviewed(undefined);
    const result = await send(true);
    if (result.error) setIssues(refusalOf(result.error, text));
    else if (result.data) setPreviewed({ text, result: result.data.importPolicies });
  };

  const apply = async () => {
    setApplying(true);
    const result = await send(false);
    setApplying(false);
    if (result.error) {
      setIssues(refusalOf(result.error, text));
      return;
    }
    const version = result.data?.importPolicies.version;
    onApplied({
      message:
        version === null || version === undefined
          ? 'The document is the current configuration: nothing changed.'
          : `The document is imported as version ${version}.`,
      countersReset: result.data?.importPolicies.countersReset ?? [],
    });
  };

  const load = async (file: File | null) => {
    setFileName(file?.name ?? null);
    if (file) setText(await file.text());
  };
  // what was previewed is what is applied: an edit since asks for a new preview
  const current = previewed?.text === text ? previewed.result : undefined;

  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title="Import policies"
      size="xl"
    >
      <Stack>
        <Text size="sm">
          The document replaces the tenant&apos;s own configuration: its policies, its changes of
          the plan&apos;s policies and its overrides, as an export writes them. Preview it first.
        </Text>
        <Group gap="sm">
          <FileButton
            accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml"
            onChange={(file) => void load(file)}
          >
            {(props) => (
              <Button variant="default" {...props}>
                Upload a file…
              </Button>
            )}
          </FileButton>
          <Text size="sm" c="dimmed">
            {fileName ?? 'A .yaml, .yml or .json export, or paste it below'}
          </Text>
        </Group>
        <Textarea
          label="Document"
          placeholder={'format: sluice.dev/policies/v1\npolicies: []\n…'}
          autosize
          minRows={8}
          maxRows={14}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        {(issues || current) && (
          <div ref={outcome}>
            {issues && <DocumentIssues issues={issues} title="The document was refused" />}
            {current && (
              <ChangePreview changes={current.changes} countersReset={current.countersReset} />
            )}
          </div>
        )}
        {previewed && !current && (
          <Alert color="gray">The document changed since its preview: preview it again.</Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="light"
            loading={fetching && !applying}
            disabled={!text.trim()}
            onClick={() => void preview()}
          >
            Preview the changes
          </Button>
          <Button
            loading={applying}
            disabled={!current || current.changes.length === 0}
            onClick={() => void apply()}
          >
            Apply the import
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
