/**
 * `--cpu-prof`: every server runs under `node --cpu-prof`, and after the run each profile is
 * summarized as busy CPU per request answered, by package and by function (see ../README.md).
 * Also runnable alone: `tsx bench/src/profile.ts <file.cpuprofile> [requests]`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The CPU profile V8 writes (`.cpuprofile`), as far as the summary reads it. */
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/**
 * Loaded with `--require` before the server: V8 writes the profile when the process exits, not
 * when a signal kills it (Nest re-raises SIGTERM after its shutdown hooks).
 */
export const EXIT_ON_SIGTERM = path.join(__dirname, 'exit-on-sigterm.cjs');

/** Node flags that profile a server into `dir`. */
export function cpuProfFlags(dir: string): string[] {
  return ['--cpu-prof', '--cpu-prof-dir', dir, '--require', EXIT_ON_SIGTERM];
}

/** Pseudo-frames V8 puts in every profile: not code anyone can make faster by itself. */
const IDLE = '(idle)';
const SPECIAL = new Set(['(root)', '(program)', '(garbage collector)', IDLE]);

/** Where a frame's code lives: a workspace project, an npm package, Node itself, or V8. */
function packageOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (SPECIAL.has(functionName)) return functionName;
  if (url === '') return '(native)';
  if (url.startsWith('node:')) return 'node';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const [scope = '', name = ''] = url.slice(modules + '/node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  const project = /\/(libs|apps|bench)\/([^/]+)\//.exec(url);
  if (project?.[1] === 'bench') return 'bench';
  return project ? `${project[1]}/${project[2]}` : url;
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  if (url === '') return functionName || '(anonymous)';
  return `${functionName || '(anonymous)'} ${path.basename(url)}:${lineNumber + 1}`;
}

export interface ProfileSummary {
  sampledMs: number;
  busyMs: number;
  requests: number;
  /** µs of self time per request, by package, largest first. */
  packages: [string, number][];
  /** µs of self time per request, by function. */
  selfTime: [string, number][];
  /** µs per request including callees, for the workspace's own functions. */
  ownInclusive: [string, number][];
  /**
   * µs per request by the nearest package on the stack: Node's and V8's own frames count for the
   * code that called them (a socket write for the HTTP framework or the Redis client).
   */
  owners: [string, number][];
}

/** What Node runs with no package's code on the stack: the HTTP parser, the event loop. */
const NODE_ITSELF = 'node itself (HTTP parser, event loop)';

export function summarizeProfile(profile: CpuProfile, requests: number): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const packages = new Map<string, number>();
  const selfTime = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const owners = new Map<string, number>();
  let sampledUs = 0;
  let idleUs = 0;
  const add = (map: Map<string, number>, key: string, us: number) =>
    map.set(key, (map.get(key) ?? 0) + us);
  // timeDeltas[i] is the time since the previous sample: it is charged to the previous one
  for (let i = 0; i < profile.samples.length; i++) {
    const us = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(profile.samples[i] ?? -1);
    if (!node) continue;
    sampledUs += us;
    if (node.callFrame.functionName === IDLE) {
      idleUs += us;
      continue;
    }
    add(packages, packageOf(node.callFrame), us);
    add(selfTime, frameName(node), us);
    add(owners, ownerOf(node, byId, parent), us);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id);
      if (!frame || !/^(libs|apps)\//.test(packageOf(frame.callFrame))) continue;
      const name = `${packageOf(frame.callFrame)} ${frameName(frame)}`;
      if (!seen.has(name)) add(inclusive, name, us);
      seen.add(name);
    }
  }
  const perRequest = (map: Map<string, number>): [string, number][] =>
    [...map].map(([key, us]): [string, number] => [key, us / requests]).sort((x, y) => y[1] - x[1]);
  return {
    sampledMs: sampledUs / 1000,
    busyMs: (sampledUs - idleUs) / 1000,
    requests,
    packages: perRequest(packages),
    selfTime: perRequest(selfTime),
    ownInclusive: perRequest(inclusive),
    owners: perRequest(owners),
  };
}

function ownerOf(
  node: ProfileNode,
  byId: Map<number, ProfileNode>,
  parent: Map<number, number>,
): string {
  for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
    const frame = byId.get(id);
    if (!frame) break;
    const owner = packageOf(frame.callFrame);
    if (owner === '(root)') break;
    if (owner !== 'node' && owner !== '(native)') return owner;
  }
  return NODE_ITSELF;
}

export function formatSummary(label: string, summary: ProfileSummary, top = 25): string {
  const rows = (entries: [string, number][]) =>
    entries
      .slice(0, top)
      .map(([name, us]) => `  ${us.toFixed(2).padStart(7)} µs  ${name}`)
      .join('\n');
  return [
    `${label}: ${(summary.busyMs / 1000).toFixed(1)} s busy of ${(summary.sampledMs / 1000).toFixed(1)} s sampled, ` +
      `${summary.requests} requests answered: ${((summary.busyMs * 1000) / summary.requests).toFixed(1)} µs busy per request`,
    'busy time per request, by the package on the stack (Node counted for its caller):',
    rows(summary.owners),
    'self time per request, by package:',
    rows(summary.packages),
    'self time per request, by function:',
    rows(summary.selfTime),
    'workspace functions per request, callees included:',
    rows(summary.ownInclusive),
  ].join('\n');
}

/**
 * The main thread's profile of the one server that wrote into `dir`: files are named
 * `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`, and tsx's loader thread writes one too.
 */
export function readProfile(dir: string): CpuProfile {
  const files = readdirSync(dir).filter((file) =>
    /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(file),
  );
  if (files.length !== 1) {
    throw new Error(`expected one main-thread .cpuprofile in ${dir}, found ${files.length}`);
  }
  return JSON.parse(readFileSync(path.join(dir, files[0] ?? ''), 'utf8')) as CpuProfile;
}

if (require.main === module) {
  const [file, requests = '1'] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: tsx bench/src/profile.ts <file.cpuprofile> [requests]\n');
    process.exit(64);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  process.stdout.write(`${formatSummary(file, summarizeProfile(profile, Number(requests)))}\n`);
}
