import { resolve } from 'node:path';

/** The repository root (this file is tools/dev/src/paths.ts). */
export const repoRoot = resolve(__dirname, '../../..');

/** Local state of `npm start` (embedded PostgreSQL, Redis, logs, demo key); SLUICE_DATA_DIR moves it. */
export const dataDir = resolve(repoRoot, process.env['SLUICE_DATA_DIR'] ?? '.data');
