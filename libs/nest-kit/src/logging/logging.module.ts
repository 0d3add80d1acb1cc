import { type DynamicModule, Module } from '@nestjs/common';
import { LoggerModule, type Params } from 'nestjs-pino';
import type { LevelWithSilent } from 'pino';
import { probeRoutes } from '../probe-routes';

export interface LoggingModuleOptions {
  /** The `name` of every log line. */
  readonly service: string;
  readonly level: LevelWithSilent;
  /** Further routes whose requests are not logged; the probe routes never are. */
  readonly exclude?: NonNullable<Params['exclude']>;
}

/** JSON logs through pino, one line per request, plus Nest's own logs once `useLogger` is set. */
@Module({})
export class LoggingModule {
  static forRoot({ service, level, exclude = [] }: LoggingModuleOptions): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: { name: service, level },
          // Polled every few seconds: logging each request would bury real traffic.
          exclude: [...Object.values(probeRoutes), ...exclude],
        }),
      ],
    };
  }
}
