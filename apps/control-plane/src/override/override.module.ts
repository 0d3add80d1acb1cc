import { Module } from '@nestjs/common';
import { OverrideResolver } from './override.resolver';
import { OverrideService } from './override.service';

@Module({ providers: [OverrideService, OverrideResolver] })
export class OverrideModule {}
