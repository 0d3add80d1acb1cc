import { Global, Module } from '@nestjs/common';
import { LiveAccessService } from './live-access.service';

/** What every subscription goes through: caps per connection and user, access checked again. */
@Global()
@Module({ providers: [LiveAccessService], exports: [LiveAccessService] })
export class LiveModule {}
