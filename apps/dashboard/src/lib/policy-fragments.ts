import { graphql } from '@/generated/gql';

/**
 * The selections of policies that several pages read, once: a rule's parameters, a policy's
 * settings, an effective rule's values with their sources, the counters a change reset, and an
 * override (the overrides page, an identifier's page).
 */

export const RuleParamsFragment = graphql(`
  fragment RuleParams on Rule {
    name
    algorithm
    candidate
    replaces
    capacity
    refillPerSecond
    leakPerSecond
    limit
    windowMs
    periodMs
    burst
    leaseTtlMs
    calendar {
      unit
      timeZone
    }
  }
`);

export const PolicySettingsFragment = graphql(`
  fragment PolicySettings on Policy {
    id
    name
    description
    mode
    failMode
    redisTimeoutMs
    reservationTtlMs
  }
`);

export const EffectiveRuleFieldsFragment = graphql(`
  fragment EffectiveRuleFields on EffectiveRule {
    name
    algorithm
    source
    candidate
    replaces
    params {
      name
      value
      calendar {
        unit
        timeZone
      }
      source
      changeable
      min
      max
    }
  }
`);

export const CounterResetFieldsFragment = graphql(`
  fragment CounterResetFields on CounterReset {
    policy
    rule
    candidate
    override
    before
    after
  }
`);

export const OverrideFieldsFragment = graphql(`
  fragment OverrideFields on Override {
    id
    policy
    policyId
    identifier
    match
    reason
    expiresAt
    expired
    rules {
      name
      burst
      capacity
      leakPerSecond
      leaseTtlMs
      limit
      periodMs
      refillPerSecond
      windowMs
      calendar {
        unit
        timeZone
      }
    }
  }
`);
