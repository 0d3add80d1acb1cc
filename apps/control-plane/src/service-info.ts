import { readServiceInfo } from '@sluice/nest-kit';
import { join } from 'node:path';

// package.json is one level above both src/ and dist/.
export const serviceInfo = readServiceInfo(join(__dirname, '..', 'package.json'));
