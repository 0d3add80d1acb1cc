import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { ApiKeyModule } from '../api-key/api-key.module';
import { AuthModule } from '../auth/auth.module';
import { CandidatesModule } from '../candidates/candidates.module';
import { RequestAuthService } from '../auth/request-auth.service';
import { ENV, type Env } from '../env';
import { MemberModule } from '../member/member.module';
import { OverrideModule } from '../override/override.module';
import { PlanModule } from '../plan/plan.module';
import { PolicyModule } from '../policy/policy.module';
import { TenantModule } from '../tenant/tenant.module';
import { graphqlOptions } from './graphql.options';
import { ServerTimeResolver } from './server-time.resolver';

/** The GraphQL endpoint (/graphql, HTTP and graphql-ws) and its root resolvers. */
@Module({
  imports: [
    AuthModule,
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      imports: [AuthModule],
      inject: [ENV, RequestAuthService],
      useFactory: (env: Env, requestAuth: RequestAuthService) => graphqlOptions(env, requestAuth),
    }),
    PlanModule,
    TenantModule,
    PolicyModule,
    CandidatesModule,
    OverrideModule,
    ApiKeyModule,
    MemberModule,
  ],
  providers: [ServerTimeResolver],
})
export class ApiModule {}
