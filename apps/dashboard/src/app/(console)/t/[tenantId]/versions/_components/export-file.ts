import type { DocumentFormat } from '@/generated/gql/graphql';

/** The name of a downloaded export: `demo-policies.yaml`, `demo-policies-v7.json`. */
export function exportFileName(
  slug: string,
  format: DocumentFormat,
  version: number | null,
): string {
  const suffix = version === null ? '' : `-v${version}`;
  return `${slug}-policies${suffix}.${format === 'JSON' ? 'json' : 'yaml'}`;
}

/**
 * The format to import a document as: JSON for a `.json` file or a text that starts as a JSON
 * object, else YAML (which reads JSON too, so a wrong guess still parses).
 */
export function documentFormatOf(text: string, fileName?: string | null): DocumentFormat {
  if (fileName?.toLowerCase().endsWith('.json')) return 'JSON';
  return text.trimStart().startsWith('{') ? 'JSON' : 'YAML';
}

/** Saves a text as a file through the browser's download. */
export function saveText(text: string, fileName: string, format: DocumentFormat): void {
  const type = format === 'JSON' ? 'application/json' : 'application/yaml';
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // once the download has taken the file
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
