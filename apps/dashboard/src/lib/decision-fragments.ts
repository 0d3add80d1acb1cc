import { graphql } from '@/generated/gql';

/** A rule's figures after a check, as `RuleFiguresTable` shows them (log entries, playground). */
export const LoggedRuleFieldsFragment = graphql(`
  fragment LoggedRuleFields on LoggedRule {
    name
    algorithm
    allowed
    limit
    remaining
    resetAt
    retryAfterMs
  }
`);
