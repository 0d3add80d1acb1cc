import { Module } from '@nestjs/common';
import { ConsoleEngineModule } from '../engine/console-engine.module';
import { AlgorithmComparisonService } from './algorithm-comparison.service';
import { PlaygroundResolver } from './playground.resolver';
import { PlaygroundService } from './playground.service';

/** The console's playground: checks and peeks through the embedded engine, the algorithm comparison. */
@Module({
  imports: [ConsoleEngineModule],
  providers: [PlaygroundService, AlgorithmComparisonService, PlaygroundResolver],
})
export class PlaygroundModule {}
