import { Controller, Get } from '@nestjs/common';
import { serviceInfo } from '../service-info';

export interface Liveness {
  status: 'ok';
  service: string;
  version: string;
}

@Controller()
export class HealthController {
  /** Liveness only: answers while the process serves HTTP, whatever its dependencies do. */
  @Get('healthz')
  liveness(): Liveness {
    return { status: 'ok', ...serviceInfo };
  }
}
