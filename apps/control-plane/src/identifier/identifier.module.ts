import { Module } from '@nestjs/common';
import { ConsoleEngineModule } from '../engine/console-engine.module';
import { IdentifierResolver } from './identifier.resolver';
import { IdentifierService } from './identifier.service';

/** One identifier in the console: its live state, the overrides that match it, a counter reset. */
@Module({
  imports: [ConsoleEngineModule],
  providers: [IdentifierService, IdentifierResolver],
})
export class IdentifierModule {}
