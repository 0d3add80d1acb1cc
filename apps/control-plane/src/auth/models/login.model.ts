import { Field, InputType, ObjectType, registerEnumType } from '@nestjs/graphql';
import { User } from './user.model';

export enum SessionTransport {
  /** Browsers: httpOnly session cookie + readable CSRF cookie; send x-csrf-token on mutations. */
  COOKIE = 'COOKIE',
  /** API clients: the token comes back in the payload; send `Authorization: Bearer <token>`. */
  BEARER = 'BEARER',
}

registerEnumType(SessionTransport, {
  name: 'SessionTransport',
  description:
    'COOKIE: the session is set as an httpOnly cookie (mutations then need x-csrf-token). BEARER: the session token is returned once, for `Authorization: Bearer`.',
});

@InputType()
export class LoginInput {
  @Field()
  email!: string;

  @Field()
  password!: string;

  @Field(() => SessionTransport, { defaultValue: SessionTransport.COOKIE })
  transport!: SessionTransport;
}

@ObjectType()
export class LoginPayload {
  @Field(() => User)
  user!: User;

  @Field({ description: 'When the session ends at the latest (it ends sooner when left idle).' })
  expiresAt!: Date;

  @Field(() => String, {
    nullable: true,
    description: 'COOKIE: the CSRF token to send as x-csrf-token (also in the sluice_csrf cookie).',
  })
  csrfToken!: string | null;

  @Field(() => String, { nullable: true, description: 'BEARER: the session token, shown once.' })
  token!: string | null;
}
