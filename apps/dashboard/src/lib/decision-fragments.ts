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

/** A request log entry, as the log table and its drawer show it (the log, an identifier's page). */
export const DecisionLogEntryFieldsFragment = graphql(`
  fragment DecisionLogEntryFields on DecisionLogEntry {
    id
    at
    identifier
    outcome
    reason
    deniedBy
    shadowDenied
    candidatesDeniedBy
    cost
    overrideId
    retryAfterMs
    rules {
      ...LoggedRuleFields
    }
    headers {
      name
      value
    }
  }
`);
