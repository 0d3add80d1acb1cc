import type { TargetId } from './targets';

export interface Summary {
  id: TargetId;
  label: string;
  requestsPerSecond: number;
  /** Lowest and highest round, to show how noisy the machine was. */
  requestsPerSecondRange: [number, number];
  p50Ms: number;
  p99Ms: number;
  commandsPerCheck: number;
  /** CPU time of the server process (all its threads) per request answered, in µs. */
  cpuUsPerRequest: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? Number.NaN) + upper) / 2;
}

const fixed = (value: number, digits: number): string => value.toFixed(digits);
/** autocannon's latency histogram holds whole ms; keep decimals only where a median has them. */
const ms = (value: number): string => String(Number(value.toFixed(2)));

/**
 * One row per server; the last two columns are (a) divided by that server: req/s (goal vs (d):
 * >= 0.9) and p99 (goal vs (c): <= 1.0). Empty when (a) did not run.
 */
export function markdownTable(summaries: readonly Summary[]): string {
  const a = summaries.find((summary) => summary.id === 'a');
  const rows = summaries.map((s) => {
    const ratio = (mine: number, theirs: number): string =>
      a && s.id !== 'a' ? fixed(mine / theirs, 2) : '—';
    return [
      s.label,
      Math.round(s.requestsPerSecond).toString(),
      s.requestsPerSecondRange.map(Math.round).join('–'),
      ms(s.p50Ms),
      ms(s.p99Ms),
      fixed(s.commandsPerCheck, 3),
      fixed(s.cpuUsPerRequest, 1),
      ratio(a?.requestsPerSecond ?? 0, s.requestsPerSecond),
      ratio(a?.p99Ms ?? 0, s.p99Ms),
    ];
  });
  const header = [
    'server',
    'req/s',
    'req/s range',
    'p50 ms',
    'p99 ms',
    'Redis cmds/check',
    'server CPU µs/req',
    '(a) ÷ this, req/s',
    '(a) ÷ this, p99',
  ];
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const align = header.map((_, i) => (i === 0 ? '---' : '---:'));
  return [line(header), line(align), ...rows.map(line)].join('\n');
}
