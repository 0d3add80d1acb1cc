import { sharedConfig } from '../../vitest.shared.mjs';

// Next keeps routes under app/ and boot code at the project root; their specs sit beside them.
export default sharedConfig({ include: ['app/**/*.spec.ts', '*.spec.ts'] });
