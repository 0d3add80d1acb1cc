import { Args, Query, Resolver, Subscription } from '@nestjs/graphql';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/decorators';
import { parseInput } from '../graphql/input';
import {
  type Guarded,
  type LiveCaller,
  LiveAccessService,
  resolveGuarded,
} from '../live/live-access.service';
import { CurrentLiveCaller } from '../live/live-caller.decorator';
import {
  DecisionLogArgs,
  PolicyChangedArgs,
  TopDeniedArgs,
  UsageRangeArgs,
  UsageSeriesInput,
  UsageUpdatedArgs,
} from './models/usage.args';
import {
  DecisionLogPage,
  DeniedIdentifier,
  PolicyChangeEvent,
  PolicyUsageTotals,
  UsageSeries,
  UsageUpdate,
} from './models/usage.model';
import { DecisionLogService } from './decision-log.service';
import { UsageLiveService } from './usage-live.service';
import { policySchema, UsageService } from './usage.service';

/**
 * Usage of one tenant: its members (viewers and admins) and operators may read it; anyone else
 * gets NOT_FOUND, as for the tenant itself. Subscriptions run through `LiveAccessService`:
 * capped, and ended once the caller loses access.
 */
@Resolver()
export class UsageResolver {
  constructor(
    private readonly usage: UsageService,
    private readonly decisionLogs: DecisionLogService,
    private readonly live: UsageLiveService,
    private readonly liveAccess: LiveAccessService,
  ) {}

  @Query(() => UsageSeries, {
    description:
      "A policy's usage over a range, one point per second or minute (see UsageResolution); at most 900 seconds or 1440 minutes.",
  })
  usageSeries(@CurrentUser() user: AuthUser, @Args('input') input: UsageSeriesInput) {
    return this.usage.series(user, input);
  }

  @Query(() => [PolicyUsageTotals], {
    description:
      "Per policy, the tenant's usage over a range of whole minutes (at most 92 days): its published policies and any other with usage, by name.",
  })
  usageTotals(@CurrentUser() user: AuthUser, @Args() args: UsageRangeArgs) {
    return this.usage.totals(user, args);
  }

  @Query(() => [DeniedIdentifier], {
    description:
      'The most denied identifiers of a policy over a range of whole minutes, most denied first; kept 15 minutes.',
  })
  topDeniedIdentifiers(@CurrentUser() user: AuthUser, @Args() args: TopDeniedArgs) {
    return this.usage.topDenied(user, args);
  }

  @Query(() => DecisionLogPage, {
    description:
      "A policy's decision log, newest first: every denial and a sample of allows (the newest 10,000, for 15 minutes after the last), filtered by the arguments given (all must match).",
  })
  decisionLog(@CurrentUser() user: AuthUser, @Args() args: DecisionLogArgs) {
    return this.decisionLogs.page(user, args);
  }

  @Subscription(() => UsageUpdate, {
    description: `Live usage of a tenant (one published policy, or each of them): a snapshot at once, then every second.`,
    resolve: (update: Guarded<UsageUpdate>) => resolveGuarded(update),
  })
  async usageUpdated(@CurrentLiveCaller() caller: LiveCaller, @Args() args: UsageUpdatedArgs) {
    await this.usage.authorize(caller.auth.user, args.tenantId);
    const policy =
      args.policy === undefined || args.policy === null
        ? undefined
        : parseInput(policySchema, args.policy, 'policy');
    return this.liveAccess.run(caller, args.tenantId, () =>
      this.live.usageUpdates(args.tenantId, policy),
    );
  }

  @Subscription(() => PolicyChangeEvent, {
    description:
      "Each publication or removal of the tenant's policies to the data planes, from now on (changes sent while the control plane's Redis connection is down are missed).",
    resolve: (change: Guarded<PolicyChangeEvent>) => resolveGuarded(change),
  })
  async policyChanged(@CurrentLiveCaller() caller: LiveCaller, @Args() args: PolicyChangedArgs) {
    await this.usage.authorize(caller.auth.user, args.tenantId);
    return this.liveAccess.run(caller, args.tenantId, () => this.live.policyChanges(args.tenantId));
  }
}
