import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from './auth.guard';
import { AuthResolver } from './auth.resolver';
import { AuthService } from './auth.service';
import { LoginThrottleService } from './login-throttle.service';
import { RequestAuthService } from './request-auth.service';
import { SessionService } from './session.service';

@Module({
  providers: [
    SessionService,
    RequestAuthService,
    LoginThrottleService,
    AuthService,
    AuthResolver,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [RequestAuthService],
})
export class AuthModule {}
