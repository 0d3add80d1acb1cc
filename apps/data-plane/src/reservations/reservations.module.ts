import { Module } from '@nestjs/common';
import { DataPlaneMetricsModule } from '../metrics/metrics.module';
import { ReservationsController } from './reservations.controller';

/** POST /v1/settle and /v1/release: reserve → settle, and concurrency leases. */
@Module({ imports: [DataPlaneMetricsModule], providers: [ReservationsController] })
export class ReservationsModule {}
