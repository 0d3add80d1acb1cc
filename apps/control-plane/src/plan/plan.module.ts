import { Module } from '@nestjs/common';
import { PlanResolver } from './plan.resolver';
import { PlanService } from './plan.service';

@Module({ providers: [PlanService, PlanResolver], exports: [PlanService] })
export class PlanModule {}
