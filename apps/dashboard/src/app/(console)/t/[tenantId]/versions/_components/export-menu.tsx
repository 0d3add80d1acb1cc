'use client';

import { Button, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { useClient } from 'urql';
import type { DocumentFormat } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { DownloadPoliciesDocument } from './documents';
import { exportFileName, saveText } from './export-file';

/**
 * Downloads the tenant's own configuration (or a version's) as YAML or JSON, read afresh: the
 * current configuration may have changed since the page loaded.
 */
export function ExportMenu({
  tenantId,
  version,
  target,
}: {
  tenantId: string;
  /** Null: the current configuration. */
  version: number | null;
  target: ReactNode;
}) {
  const client = useClient();
  const download = async (format: DocumentFormat) => {
    const result = await client
      .query(
        DownloadPoliciesDocument,
        { tenantId, format, version },
        { requestPolicy: 'network-only' },
      )
      .toPromise();
    if (result.error || result.data === undefined) {
      notifications.show({
        color: 'red',
        message: result.error ? apiError(result.error).message : 'The export failed.',
      });
      return;
    }
    const { exportPolicies, tenant } = result.data;
    saveText(exportPolicies, exportFileName(tenant.slug, format, version), format);
  };
  return (
    <Menu position="bottom-end">
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {version === null ? 'The current configuration' : `Version ${version}`}
        </Menu.Label>
        <Menu.Item onClick={() => void download('YAML')}>Download YAML</Menu.Item>
        <Menu.Item onClick={() => void download('JSON')}>Download JSON</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The page's export button: a menu of the formats. */
export function ExportButton(props: { tenantId: string }) {
  return (
    <ExportMenu {...props} version={null} target={<Button variant="default">Export</Button>} />
  );
}
