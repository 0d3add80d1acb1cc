import { describe, expect, it } from 'vitest';
import { locateIssues } from './document-issues';

const DOCUMENT = `format: sluice.dev/policies/v1
policies:
  - name: reports
    rules:
      - name: hourly
        algorithm: sliding_window_counter
        limit: 0
        windowMs: 3600000
changes: []
overrides:
  - policy: api
    identifier: premium_*
    rules:
      burst:
        capacity: 900
`;

describe('locateIssues', () => {
  it('names the items by their names and finds the line', () => {
    expect(
      locateIssues(DOCUMENT, [
        { field: 'document.policies.0.rules.0.limit', message: 'must be at least 1' },
        {
          field: 'document.overrides.0.rules.burst.capacity',
          message: "must be at most 50 (the plan's bound)",
        },
      ]),
    ).toEqual([
      {
        where: 'policies › reports › rules › hourly › limit',
        line: 7,
        message: 'must be at least 1',
      },
      {
        where: 'overrides › api premium_* › rules › burst › capacity',
        line: 15,
        message: "must be at most 50 (the plan's bound)",
      },
    ]);
  });

  it('points to the nearest part that exists, and to the document as a whole', () => {
    expect(
      locateIssues(DOCUMENT, [
        { field: 'document.policies.0.description', message: 'is required' },
        { field: 'document', message: 'not YAML' },
      ]),
    ).toEqual([
      { where: 'policies › reports › description', line: 3, message: 'is required' },
      { where: 'the document', line: null, message: 'not YAML' },
    ]);
  });

  it('keeps the API’s path when the browser cannot parse the document either', () => {
    expect(locateIssues('format: [', [{ field: 'document.format', message: 'invalid' }])).toEqual([
      { where: 'format', line: null, message: 'invalid' },
    ]);
  });
});
