import { Args, Context, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '../audit/audit.service';
import type { GraphqlContext } from '../graphql/graphql-context';
import type { AuthUser } from './auth-user';
import { AuthService } from './auth.service';
import { CurrentUser, Public, RequestActor } from './decorators';
import { LoginInput, LoginPayload } from './models/login.model';
import { User } from './models/user.model';

@Resolver()
export class AuthResolver {
  constructor(private readonly auth: AuthService) {}

  @Public()
  @Mutation(() => LoginPayload, {
    description:
      'Starts a session. Wrong credentials and unknown accounts get the same UNAUTHENTICATED answer; too many attempts per account or IP get TOO_MANY_REQUESTS.',
  })
  login(
    @Args('input') input: LoginInput,
    @Context() context: GraphqlContext,
  ): Promise<LoginPayload> {
    return this.auth.login(input, context.meta, context.reply);
  }

  @Mutation(() => Boolean, { description: "Ends the caller's session (always true)." })
  async logout(
    @Context() context: GraphqlContext,
    @RequestActor() actor: AuditActor,
  ): Promise<boolean> {
    // the guard let this through, so the request carries a live session
    if (context.auth) await this.auth.logout(context.auth, actor, context.reply);
    return true;
  }

  @Query(() => User, { description: 'The signed-in user.' })
  me(@CurrentUser() user: AuthUser): AuthUser {
    return user;
  }
}
