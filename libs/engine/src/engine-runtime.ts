import type { UsageRecorder } from '@sluice/usage';
import type { Redis } from 'ioredis';
import { once } from 'node:events';
import type { DecisionEngine } from './engine';

/** An engine with its usage recorder and the Redis connections (lazy) they run on. */
export interface EngineRuntime {
  engine: DecisionEngine;
  recorder: UsageRecorder;
  connections: readonly Redis[];
}

/**
 * Connects, starts the engine (its cache's subscription, the Redis clock), then the recorder's
 * flushes. A failure disconnects every connection before it is thrown: no reconnect loop may
 * outlive a failed boot.
 */
export async function startEngineRuntime({ engine, recorder, connections }: EngineRuntime) {
  try {
    await Promise.all(connections.map((connection) => connection.connect()));
    await engine.start();
  } catch (error) {
    for (const connection of connections) connection.disconnect();
    throw error;
  }
  recorder.start();
}

/**
 * Stops in order: the cache's subscription, a final usage flush (its failure is reported, the
 * stop goes on), then the connections, each with QUIT when connected.
 */
export async function stopEngineRuntime(
  { engine, recorder, connections }: EngineRuntime,
  onFinalFlushError: (error: unknown) => void,
): Promise<void> {
  await engine.stop();
  await recorder.stop().catch(onFinalFlushError);
  await Promise.all(connections.map(closeConnection));
}

/** QUIT when connected (answered, then the socket closes); otherwise stop reconnecting. */
async function closeConnection(connection: Redis): Promise<void> {
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  await Promise.all([once(connection, 'end'), connection.quit()]).catch(() =>
    connection.disconnect(),
  );
}
