import { type DynamicModule, Module } from '@nestjs/common';
import { LoggerModule, type Params } from 'nestjs-pino';
import type { DestinationStream, LevelWithSilent } from 'pino';
import { probeRoutes } from '../probe-routes';

export interface LoggingModuleOptions {
  /** The `name` of every log line. */
  readonly service: string;
  readonly level: LevelWithSilent;
  /** Further routes whose requests are not logged; the probe routes never are. */
  readonly exclude?: NonNullable<Params['exclude']>;
  /** Where log lines go (default stdout). */
  readonly destination?: DestinationStream;
}

/**
 * Request headers that carry credentials (API keys, session cookies, CSRF tokens): pino writes
 * `[Redacted]` instead, so no log line ever holds a secret.
 */
export const REDACTED_HEADERS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
] as const;

/** JSON logs through pino, one line per request, plus Nest's own logs once `useLogger` is set. */
@Module({})
export class LoggingModule {
  static forRoot({
    service,
    level,
    exclude = [],
    destination,
  }: LoggingModuleOptions): DynamicModule {
    const options = { name: service, level, redact: [...REDACTED_HEADERS] };
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: destination ? [options, destination] : options,
          // Polled every few seconds: logging each request would bury real traffic.
          exclude: [...Object.values(probeRoutes), ...exclude],
        }),
      ],
    };
  }
}
