import { Resolver, Subscription } from '@nestjs/graphql';
import { setInterval } from 'node:timers/promises';
import {
  type Guarded,
  type LiveCaller,
  LiveAccessService,
  resolveGuarded,
} from '../live/live-access.service';
import { CurrentLiveCaller } from '../live/live-caller.decorator';

const TICK_MS = 1000;

/** Now, then every second until the client unsubscribes (the generator's return stops the timer). */
async function* ticks(): AsyncGenerator<Date> {
  yield new Date();
  for await (const _ of setInterval(TICK_MS)) yield new Date();
}

@Resolver()
export class ServerTimeResolver {
  constructor(private readonly live: LiveAccessService) {}

  @Subscription(() => Date, {
    description:
      'The server clock now, then every second: a signed-in WebSocket liveness feed (it ends when the session does).',
    resolve: (value: Guarded<Date>) => resolveGuarded(value),
  })
  serverTime(
    @CurrentLiveCaller() caller: LiveCaller,
  ): Promise<AsyncIterableIterator<Guarded<Date>>> {
    return this.live.run(caller, null, () => Promise.resolve(ticks()));
  }
}
