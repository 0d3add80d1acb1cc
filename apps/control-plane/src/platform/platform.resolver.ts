import { Args, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Roles } from '../auth/decorators';
import {
  DataPlaneInstance,
  Platform,
  PlatformPublication,
  PlatformTraffic,
  PlatformTrafficArgs,
  WorkerInstance,
} from './models/platform.model';
import { PlatformService } from './platform.service';

/** Operators only: the query is the one way in, so its fields need no check of their own. */
@Resolver(() => Platform)
export class PlatformResolver {
  constructor(private readonly service: PlatformService) {}

  @Roles('operator')
  @Query(() => Platform, {
    description:
      'Operators: traffic across tenants, publication lag, and the data planes and workers by their heartbeats.',
  })
  async platform(): Promise<Platform> {
    return { at: await this.service.now() };
  }

  @ResolveField(() => PlatformTraffic)
  traffic(@Args() args: PlatformTrafficArgs) {
    return this.service.traffic(args.range, args.top);
  }

  @ResolveField(() => PlatformPublication)
  publication() {
    return this.service.publication();
  }

  @ResolveField(() => [DataPlaneInstance], {
    description: 'Every data plane that beat within the hour, the latest first.',
  })
  dataPlanes() {
    return this.service.dataPlanes();
  }

  @ResolveField(() => [WorkerInstance], {
    description: 'Every worker that beat within the hour, the latest first.',
  })
  workers() {
    return this.service.workers();
  }
}
