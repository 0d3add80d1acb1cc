import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The migrated template database that `npm test` prepares; each test clones it, which takes
 * milliseconds where running the migrations again would take seconds.
 */
export function testTemplateUrl(): string {
  const url = process.env['SLUICE_TEST_DATABASE_URL'];
  if (!url) {
    throw new Error(
      'SLUICE_TEST_DATABASE_URL is not set: run the tests through `npm test`, which prepares a ' +
        'migrated template database, or point it at one yourself',
    );
  }
  return url;
}

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

/** A private database cloned from the migrated template; `drop()` it in afterAll/afterEach. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = new URL(testTemplateUrl());
  const templateName = decodeURIComponent(template.pathname.slice(1));
  // `npm test` drops leftovers of interrupted runs by this prefix.
  const name = `${templateName}_${randomBytes(6).toString('hex')}`;
  // CREATE DATABASE … TEMPLATE needs a connection to some other database of the same server.
  const admin = new URL(process.env['SLUICE_TEST_ADMIN_URL'] ?? template);
  if (!process.env['SLUICE_TEST_ADMIN_URL']) admin.pathname = '/postgres';
  await execute(admin.toString(), `create database "${name}" template "${templateName}"`);
  const url = new URL(template);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => execute(admin.toString(), `drop database if exists "${name}" with (force)`),
  };
}

async function execute(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
