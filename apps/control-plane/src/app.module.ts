import { type DynamicModule, Module } from '@nestjs/common';
import { HealthModule, LoggingModule, RedisModule, RedisReadinessCheck } from '@sluice/nest-kit';
import { AccessModule } from './access/access.module';
import { AuditModule } from './audit/audit.module';
import { DatabaseModule } from './database/database.module';
import { DatabaseReadinessCheck } from './database/database-readiness.check';
import { ENV, type Env } from './env';
import { ApiModule } from './graphql/api.module';
import { IdentifierModule } from './identifier/identifier.module';
import { LiveModule } from './live/live.module';
import { OutboxModule } from './outbox/outbox.module';
import { PlatformModule } from './platform/platform.module';
import { PlaygroundModule } from './playground/playground.module';
import { PublishModule } from './publish/publish.module';
import { TopIdentifiersModule } from './top-identifiers/top-identifiers.module';
import { serviceInfo } from './service-info';
import { UsageModule } from './usage/usage.module';
import { WebhookModule } from './webhook/webhook.module';

@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        LoggingModule.forRoot({ service: serviceInfo.service, level: env.LOG_LEVEL }),
        RedisModule.forRoot({ url: env.REDIS_URL }),
        DatabaseModule,
        HealthModule.forRoot({
          ...serviceInfo,
          readiness: [RedisReadinessCheck, DatabaseReadinessCheck],
        }),
        AuditModule,
        OutboxModule,
        AccessModule,
        LiveModule,
        PublishModule,
        ApiModule,
        UsageModule,
        WebhookModule,
        PlaygroundModule,
        IdentifierModule,
        TopIdentifiersModule,
        PlatformModule,
      ],
      providers: [{ provide: ENV, useValue: env }],
      exports: [ENV],
    };
  }
}
