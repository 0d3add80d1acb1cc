import { Field, InputType } from '@nestjs/graphql';

@InputType()
export class ResetPasswordInput {
  @Field({ description: 'The token of the mailed link (`…/reset-password/<token>`).' })
  token!: string;

  @Field({ description: 'The new password (at least 12 characters).' })
  password!: string;
}

@InputType()
export class ChangePasswordInput {
  @Field()
  currentPassword!: string;

  @Field({ description: 'At least 12 characters, not the current one.' })
  newPassword!: string;
}
