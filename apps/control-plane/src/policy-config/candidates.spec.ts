import { describe, expect, it } from 'vitest';
import { applyCandidates, candidateLinkIssues, withCandidates } from './candidates';
import type { PolicyRow, RuleRow } from './tenant-state';

const rule = (name: string, over: Partial<RuleRow> = {}): RuleRow => ({
  name,
  algorithm: 'token_bucket',
  params: { capacity: 10, refillPerSecond: 1 },
  candidate: false,
  replaces: null,
  tenantBounds: null,
  ...over,
});

const policy = (rules: RuleRow[]): PolicyRow => ({
  id: 'pol_api',
  name: 'api',
  description: '',
  mode: 'enforce',
  failMode: 'open',
  redisTimeoutMs: 50,
  reservationTtlMs: null,
  rules,
});

describe('applyCandidates', () => {
  it('puts a proposal in the rule it replaces, in place, and adds the others after the live rules', () => {
    const applied = applyCandidates(
      policy([
        rule('burst', { tenantBounds: { capacity: { max: 50 }, refillPerSecond: { max: 5 } } }),
        rule('daily', { algorithm: 'fixed_window', params: { limit: 100, windowMs: 86_400_000 } }),
        rule('burst-next', {
          candidate: true,
          replaces: 'burst',
          params: { capacity: 4, refillPerSecond: 1 },
        }),
        rule('hourly', {
          candidate: true,
          algorithm: 'gcra',
          params: { limit: 10, periodMs: 3_600_000 },
        }),
      ]),
    );
    expect(applied.rules).toEqual([
      rule('burst', {
        params: { capacity: 4, refillPerSecond: 1 },
        tenantBounds: { capacity: { max: 50 }, refillPerSecond: { max: 5 } },
      }),
      rule('daily', { algorithm: 'fixed_window', params: { limit: 100, windowMs: 86_400_000 } }),
      rule('hourly', { algorithm: 'gcra', params: { limit: 10, periodMs: 3_600_000 } }),
    ]);
  });

  it("drops a template rule's bounds when the proposal changes its algorithm", () => {
    const applied = applyCandidates(
      policy([
        rule('burst', { tenantBounds: { capacity: { max: 50 } } }),
        rule('next', {
          candidate: true,
          replaces: 'burst',
          algorithm: 'gcra',
          params: { limit: 5, periodMs: 1000 },
        }),
      ]),
    );
    expect(applied.rules).toEqual([
      rule('burst', { algorithm: 'gcra', params: { limit: 5, periodMs: 1000 } }),
    ]);
  });
});

describe('withCandidates', () => {
  it('replaces the candidates only, as candidates without bounds', () => {
    const next = withCandidates(policy([rule('burst'), rule('old', { candidate: true })]), [
      rule('new', { replaces: 'burst', tenantBounds: { capacity: { max: 1 } } }),
    ]);
    expect(next.rules).toEqual([
      rule('burst'),
      rule('new', { candidate: true, replaces: 'burst' }),
    ]);
  });
});

describe('candidateLinkIssues', () => {
  it('names a link to no live rule, or to a live rule another candidate proposes for', () => {
    const issues = candidateLinkIssues(
      policy([
        rule('burst'),
        rule('a', { candidate: true, replaces: 'burst' }),
        rule('b', { candidate: true, replaces: 'burst' }),
        rule('c', { candidate: true, replaces: 'a' }),
      ]),
      'input',
    );
    expect(issues).toEqual([
      {
        field: 'input.candidateRules.1.replaces',
        message: 'candidate a already proposes values for burst',
      },
      { field: 'input.candidateRules.2.replaces', message: 'the policy has no rule named a' },
    ]);
  });
});
