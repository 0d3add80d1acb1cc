import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { MailModule } from '../mail/mail.module';
import { AuthGuard } from './auth.guard';
import { AuthResolver } from './auth.resolver';
import { AuthService } from './auth.service';
import { LoginThrottleService } from './login-throttle.service';
import { PasswordResolver } from './password.resolver';
import { PasswordService } from './password.service';
import { RequestAuthService } from './request-auth.service';
import { SessionService } from './session.service';

@Module({
  imports: [MailModule],
  providers: [
    SessionService,
    RequestAuthService,
    LoginThrottleService,
    AuthService,
    AuthResolver,
    PasswordService,
    PasswordResolver,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  // AuthService and LoginThrottleService: accepting an invitation checks a password and starts a session
  exports: [RequestAuthService, AuthService, LoginThrottleService, SessionService],
})
export class AuthModule {}
