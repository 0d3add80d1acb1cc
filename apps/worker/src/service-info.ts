import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

// Read at runtime: package.json lies outside tsc's rootDir, one level above both src/ and dist/.
const manifest = z
  .object({ version: z.string() })
  .parse(JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')));

export const serviceInfo = { service: 'worker', version: manifest.version } as const;
