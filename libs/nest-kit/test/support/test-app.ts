import { type DynamicModule, type LoggerService, Module, type Provider } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createFastifyApp, LoggingModule } from '../../src';

@Module({})
class TestAppModule {}

/** A root module like an app's: silent logging plus `imports` and `providers`. */
export function testAppModule(
  imports: DynamicModule['imports'] = [],
  providers: Provider[] = [],
): DynamicModule {
  return {
    module: TestAppModule,
    imports: [LoggingModule.forRoot({ service: 'nest-kit-test', level: 'silent' }), ...imports],
    providers,
  };
}

let started: NestFastifyApplication[] = [];

/** Boots `module` on a free port; `closeApps` (in afterEach) closes what the test left open. */
export async function startApp(
  module: DynamicModule,
): Promise<{ app: NestFastifyApplication; url: string }> {
  const app = await createFastifyApp(module);
  started.push(app);
  await app.listen(0, '127.0.0.1');
  return { app, url: await app.getUrl() };
}

/** Closes `app` now, as SIGTERM would; a second close would run the shutdown hooks again. */
export async function closeApp(app: NestFastifyApplication): Promise<void> {
  started = started.filter((open) => open !== app);
  await app.close();
}

export async function closeApps(): Promise<void> {
  const open = started;
  started = [];
  await Promise.all(open.map((app) => app.close()));
}

export interface LogEntry {
  level: 'log' | 'warn' | 'error';
  message: string;
  context: string | undefined;
}

/** Keeps what Nest's `Logger` writes; `onLog` sees each entry as it is written. */
export class RecordingLogger implements LoggerService {
  readonly entries: LogEntry[] = [];

  constructor(private readonly onLog: (entry: LogEntry) => void = () => undefined) {}

  log(message: string, context?: string): void {
    this.record({ level: 'log', message, context });
  }

  warn(message: string, context?: string): void {
    this.record({ level: 'warn', message, context });
  }

  error(message: string, context?: string): void {
    this.record({ level: 'error', message, context });
  }

  private record(entry: LogEntry): void {
    this.entries.push(entry);
    this.onLog(entry);
  }
}
