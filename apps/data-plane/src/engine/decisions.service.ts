import { Injectable } from '@nestjs/common';
import { DecisionEngine, type CheckRequest, type CheckResult } from '@sluice/engine';
import { bearerSecret } from '../http/request-headers';
import { DataPlaneMetrics } from '../metrics/data-plane.metrics';

export type CheckInput = Omit<CheckRequest, 'key'>;

/** One timed check, as the check and authorize routes run it. */
@Injectable()
export class Decisions {
  constructor(
    private readonly engine: DecisionEngine,
    private readonly metrics: DataPlaneMetrics,
  ) {}

  /**
   * Authenticates `authorization` (a bearer key), then reads the input (after the key: an
   * unauthenticated caller learns nothing about its input), decides and sends; counts the
   * decision and its engine time (key and check) and total time (reading and sending included).
   * The input may carry more than the check (how to answer): `send` gets it back.
   */
  async decide<I extends CheckInput>(
    authorization: string | undefined,
    read: () => I,
    send: (result: CheckResult, input: I) => void,
  ): Promise<void> {
    const startedAt = performance.now();
    const secret = bearerSecret(authorization);
    // a cached key is answered without a promise to wait for
    const key = this.engine.authenticateCached(secret) ?? (await this.engine.authenticate(secret));
    const authenticatedAt = performance.now();
    const input = read();
    const checkStartedAt = performance.now();
    const { policy, identifier, cost, dryRun } = input;
    const result = await this.engine.check({ key, policy, identifier, cost, dryRun });
    const engineMs = authenticatedAt - startedAt + (performance.now() - checkStartedAt);
    send(result, input);
    this.metrics.decided(result, engineMs, performance.now() - startedAt);
  }
}
