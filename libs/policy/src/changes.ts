import type { RedisLike } from '@sluice/algorithms';
import { z } from 'zod';
import { changesChannel } from './keys';

/** What the `<prefix>changes` channel carries after every write of this lib. */
export type ChangeMessage =
  | { kind: 'tenant'; tenantId: string; version: number }
  | { kind: 'tenant-deleted'; tenantId: string }
  | { kind: 'api-key'; hash: string };

const changeMessage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tenant'), tenantId: z.string(), version: z.number().int().min(1) }),
  z.object({ kind: z.literal('tenant-deleted'), tenantId: z.string() }),
  z.object({ kind: z.literal('api-key'), hash: z.string().regex(/^[0-9a-f]{64}$/) }),
]);

export interface SubscribeOptions {
  /** A message on the channel that is not a ChangeMessage (it is skipped). */
  onInvalid?: (raw: string) => void;
}

/**
 * Calls `handler` for every change message. `subscriber` must be a connection dedicated to
 * pub/sub (Redis allows nothing else on it), with one subscription per prefix. Resolves once
 * subscribed; the returned function unsubscribes. Messages are lost while the connection is
 * down: readers re-check versions.
 */
export async function subscribeChanges(
  subscriber: RedisLike,
  prefix: string,
  handler: (change: ChangeMessage) => void,
  options: SubscribeOptions = {},
): Promise<() => Promise<void>> {
  const channel = changesChannel(prefix);
  const listener = (from: string, raw: string) => {
    if (from !== channel) return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    const parsed = changeMessage.safeParse(json);
    if (parsed.success) handler(parsed.data);
    else options.onInvalid?.(raw);
  };
  subscriber.on('message', listener);
  await subscriber.subscribe(channel);
  return async () => {
    subscriber.off('message', listener);
    await subscriber.unsubscribe(channel);
  };
}
