import { Module } from '@nestjs/common';
import { PlanModule } from '../plan/plan.module';
import { TenantResolver } from './tenant.resolver';
import { TenantService } from './tenant.service';

@Module({ imports: [PlanModule], providers: [TenantService, TenantResolver] })
export class TenantModule {}
