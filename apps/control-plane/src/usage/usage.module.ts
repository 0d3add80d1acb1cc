import { Module } from '@nestjs/common';
import { UsageLiveService } from './usage-live.service';
import { UsageResolver } from './usage.resolver';
import { UsageService } from './usage.service';

/** Usage for the dashboard: series, totals, top denied, the decision log, live subscriptions. */
@Module({ providers: [UsageService, UsageLiveService, UsageResolver] })
export class UsageModule {}
