import { sharedConfig } from '../../vitest.shared.mjs';

export default sharedConfig({ integration: true, e2e: true, include: ['test/**/*.e2e-spec.ts'] });
