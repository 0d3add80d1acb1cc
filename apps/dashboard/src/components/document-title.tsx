'use client';

import { useDocumentTitle } from '@mantine/hooks';

/** Names the browser tab after the page: `<page> · Sluice`. */
export function DocumentTitle({ title }: { title: string }) {
  useDocumentTitle(`${title} · Sluice`);
  return null;
}
