import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MailModule } from '../mail/mail.module';
import { InvitationResolver } from './invitation.resolver';
import { InvitationService } from './invitation.service';
import { MemberResolver } from './member.resolver';
import { MemberService } from './member.service';
import { MembershipResolver } from './membership.resolver';

@Module({
  imports: [AuthModule, MailModule],
  providers: [
    MemberService,
    MemberResolver,
    MembershipResolver,
    InvitationService,
    InvitationResolver,
  ],
})
export class MemberModule {}
