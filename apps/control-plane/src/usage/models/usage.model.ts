import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { PageInfo } from '../../graphql/pagination';

export enum UsageResolution {
  SECOND = 'SECOND',
  MINUTE = 'MINUTE',
  HOUR = 'HOUR',
  DAY = 'DAY',
}

registerEnumType(UsageResolution, {
  name: 'UsageResolution',
  description:
    "SECOND: one point per second, from the data plane's counters in Redis (kept 15 minutes). MINUTE: one point per minute, from the worker's roll-ups (kept 90 days by default), recent minutes not rolled up yet summed from the seconds. HOUR and DAY: the roll-ups summed per hour or per day (UTC), at most 744 hours or 92 days.",
});

/** The decision log's outcomes; values are the stored ones. */
export enum DecisionOutcome {
  ALLOWED = 'allowed',
  DENIED = 'denied',
}

registerEnumType(DecisionOutcome, { name: 'DecisionOutcome' });

export enum PolicyChangeKind {
  PUBLISHED = 'PUBLISHED',
  DELETED = 'DELETED',
}

registerEnumType(PolicyChangeKind, {
  name: 'PolicyChangeKind',
  description:
    "PUBLISHED: a new version of the tenant's policies reached the data planes. DELETED: the tenant's policies were removed from them.",
});

// Counts are Float: GraphQL's Int has 32 bits, counts and costs over long ranges may not.
const COUNT = 'An integer (a Float, as it may exceed 32 bits).';

@ObjectType()
export class UsageReasonCount {
  @Field({ description: "The engine's reason code, e.g. `rule` or `suspended`." })
  reason!: string;

  @Field(() => Float, { description: COUNT })
  count!: number;
}

@ObjectType()
export class UsageRuleCount {
  @Field({ description: 'Rule name (a live rule, or a candidate rule).' })
  rule!: string;

  @Field(() => Float, { description: COUNT })
  count!: number;
}

@ObjectType({ description: 'Counts over a span: a second, a minute, a range.' })
export class UsageTotals {
  @Field(() => Float, { description: `Allowed decisions. ${COUNT}` })
  allowed!: number;

  @Field(() => Float, { description: `Denied decisions, every reason. ${COUNT}` })
  denied!: number;

  @Field(() => [UsageReasonCount], { description: 'Denials by reason, by reason code.' })
  deniedByReason!: UsageReasonCount[];

  @Field(() => [UsageRuleCount], {
    description:
      'Denials by the rule that denied (reasons `rule` and `local`, concurrency rules included), by rule name. Minutes rolled up before the per-rule counts existed add nothing here.',
  })
  deniedByRule!: UsageRuleCount[];

  @Field(() => Float, {
    description: `Allowed only because the policy is in shadow mode (enforced, they would have been denied). ${COUNT}`,
  })
  shadowDenied!: number;

  @Field(() => [UsageRuleCount], {
    description: 'Shadow denials by the rule that would have denied, by rule name.',
  })
  shadowDeniedByRule!: UsageRuleCount[];

  @Field(() => Float, {
    description: `Decisions the policy's candidate rules would have denied. ${COUNT}`,
  })
  candidateDenied!: number;

  @Field(() => [UsageRuleCount], {
    description:
      'Candidate denials by candidate rule, by rule name (a decision two candidates would refuse counts for both).',
  })
  candidateDeniedByRule!: UsageRuleCount[];

  @Field(() => Float, {
    description: `Allowed because Redis failed and the policy fails open: what they would have been is unknown (part of allowed). ${COUNT}`,
  })
  failOpen!: number;

  @Field(() => Float, {
    description: `Cost of the allowed decisions, settled reservations at their actual cost (a span's sum may be negative). ${COUNT}`,
  })
  cost!: number;
}

@ObjectType()
export class UsagePoint extends UsageTotals {
  @Field({ description: "The bucket's start (a whole second or minute)." })
  at!: Date;
}

@ObjectType()
export class UsageSeries {
  @Field(() => UsageResolution)
  resolution!: UsageResolution;

  @Field({ description: 'Start of the first bucket (`from` rounded down to the resolution).' })
  from!: Date;

  @Field({
    description:
      'End of the last bucket asked for (`to` rounded up); points stop at the current bucket.',
  })
  to!: Date;

  @Field(() => [UsagePoint], {
    description:
      'One point per bucket from `from`, oldest first, zeros where nothing was recorded (or is kept no more).',
  })
  points!: UsagePoint[];
}

@ObjectType()
export class PolicyUsageTotals extends UsageTotals {
  @Field({ description: 'Policy name.' })
  policy!: string;
}

@ObjectType()
export class DeniedIdentifier {
  @Field({ description: 'The identifier the checks named (a user, an IP, ...).' })
  identifier!: string;

  @Field(() => Float, {
    description: `Its denials in the range (exact while it stayed among the minute's 100 most denied). ${COUNT}`,
  })
  denied!: number;
}

@ObjectType({ description: "One live rule's figures after a logged check." })
export class LoggedRule {
  @Field()
  name!: string;

  @Field()
  algorithm!: string;

  @Field(() => Boolean, { nullable: true, description: 'Whether this rule passed.' })
  allowed!: boolean | null;

  @Field(() => Float, { description: 'Capacity, limit or burst.' })
  limit!: number;

  @Field(() => Float, { description: 'Whole units left after the check (negative in debt).' })
  remaining!: number;

  @Field({ description: 'When the rule is back to full (buckets) or its window ends.' })
  resetAt!: Date;

  @Field(() => Float, { nullable: true, description: 'Ms until the same cost could pass.' })
  retryAfterMs!: number | null;

  @Field(() => Float, {
    nullable: true,
    description: 'Units per window, as RateLimit-Policy states it.',
  })
  quota!: number | null;

  @Field(() => Float, { description: 'The window of `quota`, in ms.' })
  windowMs!: number;
}

@ObjectType()
export class HttpHeader {
  @Field()
  name!: string;

  @Field()
  value!: string;
}

@ObjectType()
export class DecisionLogEntry {
  @Field(() => ID, { description: 'The log entry id (Redis stream id).' })
  id!: string;

  @Field({ description: 'When the decision was made.' })
  at!: Date;

  @Field()
  identifier!: string;

  @Field(() => DecisionOutcome)
  outcome!: DecisionOutcome;

  @Field({ description: "The engine's reason code." })
  reason!: string;

  @Field(() => String, { nullable: true, description: 'The rule that denied.' })
  deniedBy!: string | null;

  @Field(() => String, { nullable: true, description: 'The override that applied.' })
  overrideId!: string | null;

  @Field(() => Float, { description: `The cost asked for. ${COUNT}` })
  cost!: number;

  @Field({ description: 'Allowed in shadow mode, where the enforced policy would have denied.' })
  shadowDenied!: boolean;

  @Field(() => [String], { description: 'The candidate rules that would have denied.' })
  candidatesDeniedBy!: string[];

  @Field(() => Float, {
    nullable: true,
    description:
      'Ms the caller was told to wait (0 when allowed, -1 when a retry can never succeed); null in entries older than the figures.',
  })
  retryAfterMs!: number | null;

  @Field(() => [LoggedRule], {
    description:
      'Each live rule after the check, as the caller was told; empty when the decision was made without Redis (suspended, fail-open, fail-closed).',
  })
  rules!: LoggedRule[];

  @Field(() => [HttpHeader], {
    description:
      "The rate-limit headers the caller received (`X-RateLimit-*`, `RateLimit`, `RateLimit-Policy`, `Retry-After`), rebuilt from the figures by the data plane's own code; empty in entries older than the figures.",
  })
  headers!: HttpHeader[];
}

@ObjectType({
  description:
    'Newest first. `pageInfo.endCursor` is the last entry read, which a filter may have left out: pass it as `after` to continue.',
})
export class DecisionLogPage {
  @Field(() => [DecisionLogEntry])
  entries!: DecisionLogEntry[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;
}

@ObjectType()
export class PolicyUsageSnapshot {
  @Field({ description: 'Policy name.' })
  policy!: string;

  @Field(() => [UsagePoint], {
    description: 'The last seconds up to now, oldest first (the current one still counting).',
  })
  seconds!: UsagePoint[];

  @Field(() => UsageTotals, { description: 'The sum of the last 60 seconds.' })
  lastMinute!: UsageTotals;
}

@ObjectType({ description: "A snapshot of a tenant's live usage." })
export class UsageUpdate {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'When the snapshot was taken.' })
  at!: Date;

  @Field(() => [PolicyUsageSnapshot], { description: 'One per policy, by name.' })
  policies!: PolicyUsageSnapshot[];
}

@ObjectType()
export class PolicyChangeEvent {
  @Field(() => ID)
  tenantId!: string;

  @Field(() => PolicyChangeKind)
  kind!: PolicyChangeKind;

  @Field(() => Int, { nullable: true, description: 'The version published (PUBLISHED only).' })
  version!: number | null;

  @Field({ description: 'When the control plane received the change.' })
  receivedAt!: Date;
}
