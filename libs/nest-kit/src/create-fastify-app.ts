import {
  type DynamicModule,
  Inject,
  Logger,
  Module,
  type OnApplicationShutdown,
  type Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger as PinoLogger } from 'nestjs-pino';

const ROOT_MODULE_NAME = Symbol('ROOT_MODULE_NAME');

/**
 * Wraps the app's root module. Nest runs the shutdown hooks of global modules last, in reverse
 * order of registration; this one registers first, so its line marks a completed graceful stop.
 */
@Module({})
class ShutdownLogModule implements OnApplicationShutdown {
  private readonly logger: Logger;

  constructor(@Inject(ROOT_MODULE_NAME) rootModuleName: string) {
    this.logger = new Logger(rootModuleName);
  }

  onApplicationShutdown(signal?: string): void {
    this.logger.log(signal ? `shut down on ${signal}` : 'shut down');
  }
}

export interface FastifyAppOptions {
  /**
   * Proxies whose `X-Forwarded-For` is believed (Fastify's `trustProxy`: addresses, CIDRs or
   * `loopback`, `linklocal`, `uniquelocal`, comma-separated): `request.ip` is then the client's.
   * Absent: none, `request.ip` is the peer's address.
   */
  trustedProxies?: string | undefined;
}

/**
 * The configured, not yet listening application on Fastify, logging through pino (`module` must
 * import `LoggingModule`). `main.ts` listens; tests may listen on port 0.
 */
export async function createFastifyApp(
  module: Type | DynamicModule,
  options: FastifyAppOptions = {},
): Promise<NestFastifyApplication> {
  const rootModuleName = 'module' in module ? module.module.name : module.name;
  const app = await NestFactory.create<NestFastifyApplication>(
    {
      module: ShutdownLogModule,
      global: true,
      imports: [module],
      providers: [{ provide: ROOT_MODULE_NAME, useValue: rootModuleName }],
    },
    new FastifyAdapter(options.trustedProxies ? { trustProxy: options.trustedProxies } : undefined),
    // Boot logs wait for pino instead of going out in Nest's default format.
    { bufferLogs: true },
  );
  app.useLogger(app.get(PinoLogger));
  return app;
}
