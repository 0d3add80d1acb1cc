import { structuredPatch } from 'diff';

export interface DiffLine {
  kind: 'added' | 'removed' | 'same';
  text: string;
  /** The line's number in the text before (null: added). */
  before: number | null;
  /** The line's number in the text after (null: removed). */
  after: number | null;
}

/** A run of changed lines with the unchanged lines around them. */
export interface DiffHunk {
  /** Where it starts in the text before and after (1-based), for a heading. */
  beforeStart: number;
  afterStart: number;
  lines: DiffLine[];
}

/**
 * The line differences between two texts (two exports of a tenant's policies), as hunks of
 * changed lines with `context` unchanged lines around them; none when the texts are the same.
 */
export function lineDiff(before: string, after: string, context = 3): DiffHunk[] {
  const patch = structuredPatch('before', 'after', before, after, undefined, undefined, {
    context,
  });
  return patch.hunks.map((hunk) => {
    let beforeLine = hunk.oldStart;
    let afterLine = hunk.newStart;
    const lines: DiffLine[] = [];
    for (const line of hunk.lines) {
      const marker = line[0];
      const text = line.slice(1);
      if (marker === '+') lines.push({ kind: 'added', text, before: null, after: afterLine++ });
      else if (marker === '-') {
        lines.push({ kind: 'removed', text, before: beforeLine++, after: null });
      } else if (marker === ' ') {
        lines.push({ kind: 'same', text, before: beforeLine++, after: afterLine++ });
      }
      // '\' ("No newline at end of file") says nothing a reader needs
    }
    return { beforeStart: hunk.oldStart, afterStart: hunk.newStart, lines };
  });
}

/** How many lines a diff adds and removes. */
export function diffStats(hunks: readonly DiffHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of hunks.flatMap((h) => h.lines)) {
    if (line.kind === 'added') added++;
    else if (line.kind === 'removed') removed++;
  }
  return { added, removed };
}

/** A JSON value as indented lines to diff (the API's `before`/`after`); '' for none. */
export function jsonText(json: string | null | undefined): string {
  if (json === null || json === undefined) return '';
  try {
    return `${JSON.stringify(JSON.parse(json), null, 2)}\n`;
  } catch {
    return `${json}\n`;
  }
}
