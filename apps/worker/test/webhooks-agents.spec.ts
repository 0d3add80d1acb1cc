import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { EndpointAgents, type AgentLoan } from '../src/webhooks/endpoint-agents';
import { startReceiver, until, type Answer, type Receiver } from './webhooks-support';

let agents: EndpointAgents | undefined;
const receivers: Receiver[] = [];

afterEach(async () => {
  agents?.destroy();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(answers: Answer[]): Promise<Receiver> {
  const started = await startReceiver(answers);
  receivers.push(started);
  return started;
}

/** A POST through the lent agent, read to its end (its socket goes back to the agent). */
function post(loan: AgentLoan, url: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent: loan.agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    });
    request.on('error', reject);
    request.end('{}');
  });
}

describe('endpoint agents', () => {
  it('gives each endpoint its own connections, even on one host', async () => {
    const sink = await receiver([{ status: 200 }]);
    agents = new EndpointAgents(2);
    const url = new URL(sink.url);

    for (const endpointId of ['wh_a', 'wh_b', 'wh_a', 'wh_b']) {
      const loan = agents.lend(endpointId, url);
      expect(await post(loan, sink.url)).toBe(200);
      loan.release();
    }

    expect(sink.connections).toMatchObject({ opened: 2, open: 2 });
  });

  it('destroys the least recently used idle agents past its bound, never one in use', async () => {
    const sink = await receiver([{ status: 200 }]);
    // sockets that idle never time out here: only the bound can close them
    agents = new EndpointAgents(2, { idleAgents: 2, idleSocketMs: 600_000 });
    const url = new URL(sink.url);

    // lent first and not given back: in use all along
    const held = agents.lend('wh_held', url);
    expect(await post(held, sink.url)).toBe(200);
    for (const endpointId of ['wh_1', 'wh_2', 'wh_3', 'wh_4']) {
      const loan = agents.lend(endpointId, url);
      expect(await post(loan, sink.url)).toBe(200);
      loan.release();
    }

    // wh_1 and wh_2 were destroyed with their sockets; the oldest agent, in use, was not
    await until('two idle agents are left beside the one in use', () => {
      return sink.connections.open === 3;
    });
    expect(await post(held, sink.url)).toBe(200);
    expect(sink.connections.opened).toBe(5);
    // once given back, the held agent is the least recently used idle one, past the bound
    held.release();
    await until('only the two most recent idle agents are left', () => {
      return sink.connections.open === 2;
    });
  });
});
