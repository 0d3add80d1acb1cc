import { Module } from '@nestjs/common';
import { PlatformResolver } from './platform.resolver';
import { PlatformService } from './platform.service';

/** The operators' platform view: traffic across tenants, publication, data planes, workers. */
@Module({ providers: [PlatformService, PlatformResolver] })
export class PlatformModule {}
