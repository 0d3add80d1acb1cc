import http from 'node:http';
import https from 'node:https';

export interface AgentLimits {
  /** Agents of endpoints with no attempt in progress kept, the most recently used (256). */
  idleAgents?: number;
  /** A keep-alive socket unused this long is closed (5 s, as Node's own global agent does). */
  idleSocketMs?: number;
}

interface Pool {
  agent: http.Agent;
  /** Attempts using the agent now: it is never destroyed under them. */
  inUse: number;
}

/** An agent lent to one attempt; `release` once the attempt's socket is back or destroyed. */
export interface AgentLoan {
  agent: http.Agent;
  release(): void;
}

/**
 * One keep-alive agent per endpoint and origin (a changed URL starts a fresh one), with at most
 * `maxSockets` sockets: the endpoint's in-flight limit, so the agent never makes an attempt wait
 * while that limit holds, and caps the endpoint's sockets even if it did not. Endpoints share no
 * sockets, whatever their host. Agents are kept in least-recently-used order; past `idleAgents`
 * idle ones, the oldest idle agent is destroyed with its sockets, so deleted or quiet endpoints
 * leave nothing behind. An agent in use is never destroyed: at most the worker's concurrency of
 * them are in use, so agents stay below that plus `idleAgents`.
 */
export class EndpointAgents {
  /** Least recently used first. */
  private readonly pools = new Map<string, Pool>();

  private readonly idleAgents: number;
  private readonly idleSocketMs: number;

  constructor(
    private readonly maxSockets: number,
    limits: AgentLimits = {},
  ) {
    this.idleAgents = limits.idleAgents ?? 256;
    this.idleSocketMs = limits.idleSocketMs ?? 5_000;
  }

  lend(endpointId: string, target: URL): AgentLoan {
    const key = `${endpointId} ${target.origin}`;
    const pool = this.pools.get(key) ?? { agent: this.newAgent(target), inUse: 0 };
    this.pools.delete(key);
    this.pools.set(key, pool);
    pool.inUse += 1;
    let released = false;
    return {
      agent: pool.agent,
      release: () => {
        if (released) return;
        released = true;
        pool.inUse -= 1;
        this.trim();
      },
    };
  }

  destroy(): void {
    for (const pool of this.pools.values()) pool.agent.destroy();
    this.pools.clear();
  }

  private newAgent(target: URL): http.Agent {
    const options: http.AgentOptions = {
      keepAlive: true,
      maxSockets: this.maxSockets,
      timeout: this.idleSocketMs,
    };
    return target.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  }

  private trim(): void {
    let idle = 0;
    for (const pool of this.pools.values()) if (pool.inUse === 0) idle += 1;
    for (const [key, pool] of this.pools) {
      if (idle <= this.idleAgents) return;
      if (pool.inUse > 0) continue;
      pool.agent.destroy();
      this.pools.delete(key);
      idle -= 1;
    }
  }
}
