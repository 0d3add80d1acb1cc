import { describe, expect, it } from 'vitest';
import { diffStats, jsonText, lineDiff } from './line-diff';

const lines = (...texts: string[]) => `${texts.join('\n')}\n`;

describe('lineDiff', () => {
  it('is empty for the same text', () => {
    expect(lineDiff('a\nb\n', 'a\nb\n')).toEqual([]);
  });

  it('numbers the lines on each side, with the unchanged lines around a change', () => {
    const before = lines('format: v1', 'overrides:', '  - capacity: 3', 'end');
    const after = lines('format: v1', 'overrides:', '  - capacity: 10', 'end');
    expect(lineDiff(before, after, 1)).toEqual([
      {
        beforeStart: 2,
        afterStart: 2,
        lines: [
          { kind: 'same', text: 'overrides:', before: 2, after: 2 },
          { kind: 'removed', text: '  - capacity: 3', before: 3, after: null },
          { kind: 'added', text: '  - capacity: 10', before: null, after: 3 },
          { kind: 'same', text: 'end', before: 4, after: 4 },
        ],
      },
    ]);
  });

  it('splits distant changes into hunks and counts them', () => {
    const before = lines(...Array.from({ length: 20 }, (_, i) => `line ${i}`));
    const after = before.replace('line 1\n', 'line one\n').replace('line 18\n', '');
    const hunks = lineDiff(before, after, 2);
    expect(hunks.map((h) => [h.beforeStart, h.afterStart])).toEqual([
      [1, 1],
      [17, 17],
    ]);
    expect(diffStats(hunks)).toEqual({ added: 1, removed: 2 });
  });

  it('ignores the note on a last line without a newline', () => {
    const [hunk] = lineDiff('a', 'b');
    expect(hunk?.lines.map((l) => l.kind)).toEqual(['removed', 'added']);
  });
});

describe('jsonText', () => {
  it('indents a JSON value to diff it, nothing for none', () => {
    expect(jsonText('{"burst":{"capacity":3}}')).toBe(
      '{\n  "burst": {\n    "capacity": 3\n  }\n}\n',
    );
    expect(jsonText(null)).toBe('');
  });
});
