import { Module } from '@nestjs/common';
import { ConsoleEngineModule } from '../engine/console-engine.module';
import { TopIdentifiersResolver } from './top-identifiers.resolver';
import { TopIdentifiersService } from './top-identifiers.service';

/** A policy's heavy hitters and most denied identifiers, with their quota now and burn-down. */
@Module({
  imports: [ConsoleEngineModule],
  providers: [TopIdentifiersService, TopIdentifiersResolver],
})
export class TopIdentifiersModule {}
