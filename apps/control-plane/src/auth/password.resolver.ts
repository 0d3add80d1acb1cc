import { Args, Context, Mutation, Resolver } from '@nestjs/graphql';
import type { GraphqlContext } from '../graphql/graphql-context';
import { Public } from './decorators';
import { ChangePasswordInput, ResetPasswordInput } from './models/password.model';
import { PasswordService } from './password.service';

@Resolver()
export class PasswordResolver {
  constructor(private readonly passwords: PasswordService) {}

  @Public()
  @Mutation(() => Boolean, {
    description:
      'Mails a one-time password reset link if the address has an account. Always true, so it never tells whether one exists; too many requests per address or IP get TOO_MANY_REQUESTS.',
  })
  requestPasswordReset(
    @Args('email') email: string,
    @Context() context: GraphqlContext,
  ): Promise<boolean> {
    return this.passwords.requestReset(email, context.meta);
  }

  @Public()
  @Mutation(() => Boolean, {
    description:
      'Sets a new password with the token of a reset link (once, before it expires) and ends every session of the account; log in afterwards. A bad, used or expired token is BAD_USER_INPUT on input.token.',
  })
  resetPassword(
    @Args('input') input: ResetPasswordInput,
    @Context() context: GraphqlContext,
  ): Promise<boolean> {
    return this.passwords.reset(input, context.meta);
  }

  @Mutation(() => Boolean, {
    description:
      "Changes the caller's password; every other session of the caller ends, this one stays. A wrong current password is BAD_USER_INPUT on input.currentPassword.",
  })
  async changePassword(
    @Args('input') input: ChangePasswordInput,
    @Context() context: GraphqlContext,
  ): Promise<boolean> {
    // guarded: the request carries a live session
    if (!context.auth) throw new Error('changePassword without a session');
    return this.passwords.change(context.auth, input, context.meta);
  }
}
