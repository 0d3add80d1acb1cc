import { type DynamicModule, Module } from '@nestjs/common';
import { RedisReadinessCheck } from './redis-readiness.check';
import { REDIS_MODULE_OPTIONS, type RedisModuleOptions } from './redis.options';
import { RedisService } from './redis.service';

/** One Redis connection per app, so global: every module injects the same `RedisService`. */
@Module({})
export class RedisModule {
  static forRoot(options: RedisModuleOptions): DynamicModule {
    return {
      module: RedisModule,
      global: true,
      providers: [
        { provide: REDIS_MODULE_OPTIONS, useValue: options },
        RedisService,
        RedisReadinessCheck,
      ],
      exports: [RedisService, RedisReadinessCheck],
    };
  }
}
