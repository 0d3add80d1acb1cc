import { Module } from '@nestjs/common';
import { CheckController } from './check.controller';

/** POST /v1/check: the decision API services call before each request they limit. */
@Module({ providers: [CheckController] })
export class CheckModule {}
