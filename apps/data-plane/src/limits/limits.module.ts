import { Module } from '@nestjs/common';
import { LimitsController } from './limits.controller';

/** GET and DELETE /v1/limits/{policy}/{identifier}: inspect and reset an identifier's state. */
@Module({ providers: [LimitsController] })
export class LimitsModule {}
