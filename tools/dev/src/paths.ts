import { resolve } from 'node:path';

/** The repository root (this file is tools/dev/src/paths.ts). */
export const repoRoot = resolve(__dirname, '../../..');
export const dataDir = resolve(repoRoot, '.data');
