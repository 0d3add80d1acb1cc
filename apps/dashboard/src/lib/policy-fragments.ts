import { graphql } from '@/generated/gql';

/**
 * The selections of policies that several pages read, once: a rule's parameters, a policy's
 * settings, an effective rule's values with their sources, and the counters a change reset.
 */

export const RuleParamsFragment = graphql(`
  fragment RuleParams on Rule {
    name
    algorithm
    candidate
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
    candidate
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
