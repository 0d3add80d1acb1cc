import { Module } from '@nestjs/common';
import { ConsoleEngineService } from './console-engine.service';

/** The data plane's engine in the control plane, for the console's own checks. */
@Module({ providers: [ConsoleEngineService], exports: [ConsoleEngineService] })
export class ConsoleEngineModule {}
