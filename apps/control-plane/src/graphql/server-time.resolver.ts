import { Resolver, Subscription } from '@nestjs/graphql';
import { setInterval } from 'node:timers/promises';

const TICK_MS = 1000;

/** Now, then every second until the client unsubscribes (the generator's return stops the timer). */
async function* ticks(): AsyncGenerator<{ serverTime: Date }> {
  yield { serverTime: new Date() };
  for await (const _ of setInterval(TICK_MS)) yield { serverTime: new Date() };
}

@Resolver()
export class ServerTimeResolver {
  @Subscription(() => Date, {
    description: 'The server clock now, then every second: a signed-in WebSocket liveness feed.',
  })
  serverTime(): AsyncGenerator<{ serverTime: Date }> {
    return ticks();
  }
}
