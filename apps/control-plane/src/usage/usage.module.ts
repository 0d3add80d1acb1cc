import { Module } from '@nestjs/common';
import { DecisionLogService } from './decision-log.service';
import { UsageLiveService } from './usage-live.service';
import { UsageResolver } from './usage.resolver';
import { UsageService } from './usage.service';

/** Usage for the dashboard: series, totals, top denied, the decision log, live subscriptions. */
@Module({ providers: [UsageService, DecisionLogService, UsageLiveService, UsageResolver] })
export class UsageModule {}
