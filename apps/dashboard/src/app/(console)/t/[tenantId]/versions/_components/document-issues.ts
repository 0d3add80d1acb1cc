import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { CombinedError } from 'urql';
import { apiError, type FieldIssue } from '@/lib/errors';

export interface DocumentIssue {
  /** Where in the document, as people read it: "overrides › api premium_* › rules › burst". */
  where: string;
  /** The line in the document (1-based), when it can be found. */
  line: number | null;
  message: string;
}

/** How an item of a list of the document is named: by its name, else by its place. */
function itemName(section: string | undefined, item: unknown, index: number): string {
  const record = (item ?? {}) as Record<string, unknown>;
  if (section === 'overrides' && typeof record['policy'] === 'string') {
    return `${record['policy']} ${String(record['identifier'] ?? '')}`.trim();
  }
  if (section === 'changes' && typeof record['policy'] === 'string') return record['policy'];
  if (typeof record['name'] === 'string' && record['name']) return record['name'];
  return `#${index + 1}`;
}

/**
 * The API's issues with an imported document (`document.policies.0.rules.1.capacity`) said where
 * they are in the document as written: its items by their names, and the line. A document the
 * browser cannot parse either keeps the API's path.
 */
export function locateIssues(text: string, issues: readonly FieldIssue[]): DocumentIssue[] {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  const parsed = document.errors.length === 0;
  return issues.map((issue) => {
    const path = issue.field
      .split('.')
      .slice(issue.field.startsWith('document') ? 1 : 0)
      .filter(Boolean);
    if (path.length === 0) return { where: 'the document', line: null, message: issue.message };
    if (!parsed) return { where: path.join(' › '), line: null, message: issue.message };
    const words: string[] = [];
    let node: unknown = document.contents;
    let found: Node | null = null;
    let value: unknown = document.toJS();
    let section: string | undefined;
    for (const [depth, key] of path.entries()) {
      if (isSeq(node) && /^\d+$/.test(key)) {
        const index = Number(key);
        words.push(itemName(section, (value as unknown[] | undefined)?.[index], index));
        node = node.items[index];
        value = (value as unknown[] | undefined)?.[index];
      } else {
        words.push(key);
        if (depth === 0) section = key;
        node = isMap(node) ? node.get(key, true) : undefined;
        value = (value as Record<string, unknown> | undefined)?.[key];
      }
      if (node && typeof node === 'object' && 'range' in node) found = node as Node;
    }
    const offset = found?.range?.[0];
    return {
      where: words.join(' › '),
      line: offset === undefined ? null : lineCounter.linePos(offset).line,
      message: issue.message,
    };
  });
}

/** What a refused import or rollback says: its issues located in the document, else its message. */
export function refusalOf(error: CombinedError, document: string): DocumentIssue[] {
  const { issues, message } = apiError(error);
  return issues.length > 0
    ? locateIssues(document, issues)
    : [{ where: 'the change', line: null, message }];
}
