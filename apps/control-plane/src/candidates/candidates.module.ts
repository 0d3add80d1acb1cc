import { Module } from '@nestjs/common';
import { PlanModule } from '../plan/plan.module';
import { PolicyModule } from '../policy/policy.module';
import { CandidatesResolver } from './candidates.resolver';
import { CandidatesService } from './candidates.service';
import { EstimateService } from './estimate.service';
import { PlanPolicyCandidatesService } from './plan-policy-candidates.service';

/**
 * Try in shadow: a proposal estimated against the heaviest identifiers, then run as the policy's
 * candidate rules, applied or discarded in one step.
 */
@Module({
  imports: [PolicyModule, PlanModule],
  providers: [CandidatesService, EstimateService, PlanPolicyCandidatesService, CandidatesResolver],
})
export class CandidatesModule {}
