import { parseArgs } from 'node:util';
import { TARGET_IDS, type TargetId } from './targets';

export interface Options {
  /** Servers to run, in round order; undefined means every available one. */
  only: TargetId[] | undefined;
  rounds: number;
  durationSeconds: number;
  connections: number;
  warmupSeconds: number;
  /** Run every server under `node --cpu-prof` and summarize the profiles at the end. */
  cpuProf: boolean;
}

export const USAGE = `usage: tsx --conditions=@sluice/source bench/src/run.ts [options]
  --only a,b,c,d     servers to run, in round order (default: all available)
  --rounds N         alternating rounds (default 3)
  --duration S       seconds per round (default 10)
  --connections N    autocannon connections (default 100)
  --warmup S         warm-up seconds per server before the rounds (default 5)
  --cpu-prof         profile every server (node --cpu-prof) and print where its CPU went
env REDIS_URL        use that Redis instead of a private one (commandstats are then shared)`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function parseOptions(argv: readonly string[]): Options | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        only: { type: 'string' },
        rounds: { type: 'string', default: '3' },
        duration: { type: 'string', default: '10' },
        connections: { type: 'string', default: '100' },
        warmup: { type: 'string', default: '5' },
        'cpu-prof': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';
  return {
    only: values.only === undefined ? undefined : parseOnly(values.only),
    rounds: integer('--rounds', values.rounds, 1, 20),
    durationSeconds: integer('--duration', values.duration, 1, 600),
    connections: integer('--connections', values.connections, 1, 1000),
    warmupSeconds: integer('--warmup', values.warmup, 0, 120),
    cpuProf: values['cpu-prof'],
  };
}

function parseOnly(value: string): TargetId[] {
  const ids = value.split(',').map((id) => id.trim().toLowerCase());
  for (const id of ids) {
    if (!(TARGET_IDS as readonly string[]).includes(id)) {
      throw new UsageError(
        `--only: unknown server "${id}", expected some of ${TARGET_IDS.join(',')}`,
      );
    }
  }
  if (new Set(ids).size !== ids.length) throw new UsageError('--only: a server is listed twice');
  return ids as TargetId[];
}

function integer(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw new UsageError(`${flag}: must be an integer ${min}..${max}, got "${value}"`);
  }
  return n;
}
