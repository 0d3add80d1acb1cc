import { Module } from '@nestjs/common';
import { AuthorizeController } from './authorize.controller';

/** GET /v1/authorize: the check behind a reverse proxy's sub-request. */
@Module({ providers: [AuthorizeController] })
export class AuthorizeModule {}
