import { Module } from '@nestjs/common';
import { PlanModule } from '../plan/plan.module';
import { PolicyModule } from '../policy/policy.module';
import { CandidatesResolver } from './candidates.resolver';
import { CandidatesService } from './candidates.service';

/** Try in shadow: a policy's candidate rules proposed, applied or discarded in one step. */
@Module({
  imports: [PolicyModule, PlanModule],
  providers: [CandidatesService, CandidatesResolver],
})
export class CandidatesModule {}
