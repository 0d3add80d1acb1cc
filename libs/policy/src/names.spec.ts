import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldIssues } from './names';

const body = z.strictObject(
  {
    policy: z.string({ error: 'must be a string' }),
    rules: z.array(z.strictObject({ limit: z.int() })),
  },
  { error: 'must be an object' },
);

const issuesOf = (input: unknown, root?: string) => {
  const parsed = body.safeParse(input);
  if (parsed.success) throw new Error('expected a failure');
  return fieldIssues(parsed.error, root);
};

describe('fieldIssues', () => {
  it('names each field as code would, and each unknown key at its own path', () => {
    expect(issuesOf({ policy: 1, rules: [{ limit: 1.5, extra: 1 }], 'odd key': 2 })).toEqual([
      { path: 'policy', message: 'must be a string' },
      { path: 'rules[0].limit', message: expect.any(String) },
      { path: 'rules[0].extra', message: 'unknown field' },
      { path: '["odd key"]', message: 'unknown field' },
    ]);
  });

  it('puts what is wrong with the whole input at the root path given', () => {
    expect(issuesOf('text', 'body')).toEqual([{ path: 'body', message: 'must be an object' }]);
    expect(issuesOf(null)).toEqual([{ path: '', message: 'must be an object' }]);
  });
});
