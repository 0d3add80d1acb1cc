'use client';

import { Alert, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import type { CounterResetView } from '@/components/counters-reset-list';
import { apiError } from '@/lib/errors';
import { ChangePreview, DocumentIssues, type DocumentChange } from './change-preview';
import { refusalOf, type DocumentIssue } from './document-issues';
import {
  ExportPoliciesDocument,
  ImportPoliciesDocument,
  RollbackPoliciesDocument,
} from './documents';

export interface PolicyChangeApplied {
  message: string;
  countersReset: readonly CounterResetView[];
}

interface Preview {
  changes: readonly DocumentChange[];
  countersReset: readonly CounterResetView[];
}

/**
 * Rolls the tenant back to a version, its effect shown first: the version's document imported as
 * a dry run says what would change and which counters would start afresh; then the rollback
 * publishes it as a new version.
 */
export function RollbackModal({
  tenantId,
  version,
  onClose,
  onApplied,
}: {
  tenantId: string;
  version: number;
  onClose: () => void;
  onApplied: (applied: PolicyChangeApplied) => void;
}) {
  const [exported] = useQuery({
    query: ExportPoliciesDocument,
    variables: { tenantId, format: 'YAML', version },
    requestPolicy: 'cache-first',
  });
  const [, dryRun] = useMutation(ImportPoliciesDocument);
  const [rollback, apply] = useMutation(RollbackPoliciesDocument);
  const [preview, setPreview] = useState<Preview>();
  const [issues, setIssues] = useState<DocumentIssue[]>();
  const [failure, setFailure] = useState<string>();
  const document = exported.data?.exportPolicies;
  const previewed = useRef(false);

  useEffect(() => {
    if (document === undefined || previewed.current) return;
    previewed.current = true;
    void dryRun({ input: { tenantId, document, format: 'YAML', dryRun: true } }).then((result) => {
      if (result.error) setIssues(refusalOf(result.error, document));
      else if (result.data) setPreview(result.data.importPolicies);
    });
  }, [document, dryRun, tenantId]);

  const confirm = async () => {
    setFailure(undefined);
    const result = await apply(
      { tenantId, version },
      { additionalTypenames: ['PolicyVersion', 'Override', 'EffectivePolicy'] },
    );
    if (result.error) {
      if (document !== undefined) setIssues(refusalOf(result.error, document));
      else setFailure(apiError(result.error).message);
      return;
    }
    const published = result.data?.rollbackPolicies.version;
    onApplied({
      message:
        published === null || published === undefined
          ? `Nothing to roll back: version ${version}'s configuration is the current one.`
          : `Version ${published} is published with the configuration of version ${version}.`,
      countersReset: result.data?.rollbackPolicies.countersReset ?? [],
    });
  };

  const loading = !preview && !issues && !exported.error;
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={`Roll back to version ${version}`}
      size="xl"
    >
      <Stack>
        <Text size="sm">
          The tenant&apos;s own configuration of version {version} (its policies, its changes of the
          plan&apos;s policies, its overrides) becomes the current one again, published as a new
          version. The plan&apos;s policies stay as they are now.
        </Text>
        {exported.error && (
          <Alert color="red" role="alert">
            {apiError(exported.error).message}
          </Alert>
        )}
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        {loading && (
          <Center py="md">
            <Loader aria-label="Previewing the rollback" />
          </Center>
        )}
        {issues && <DocumentIssues issues={issues} title="This version cannot be restored" />}
        {preview && !issues && (
          <ChangePreview changes={preview.changes} countersReset={preview.countersReset} />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={rollback.fetching}
            disabled={!preview || Boolean(issues) || preview.changes.length === 0}
            onClick={() => void confirm()}
          >
            Roll back to version {version}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
