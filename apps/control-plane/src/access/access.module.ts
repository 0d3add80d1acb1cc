import { Global, Module } from '@nestjs/common';
import { AccessService } from './access.service';
import { TenantAccessService } from './tenant-access.service';

@Global()
@Module({
  providers: [AccessService, TenantAccessService],
  exports: [AccessService, TenantAccessService],
})
export class AccessModule {}
