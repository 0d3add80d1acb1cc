import { Module } from '@nestjs/common';
import { ConsoleEngineModule } from '../engine/console-engine.module';
import { PlaygroundResolver } from './playground.resolver';
import { PlaygroundService } from './playground.service';

/** The console's playground: checks and peeks through the embedded engine. */
@Module({
  imports: [ConsoleEngineModule],
  providers: [PlaygroundService, PlaygroundResolver],
})
export class PlaygroundModule {}
