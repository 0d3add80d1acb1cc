import { sharedConfig } from '../../vitest.shared.mjs';

export default sharedConfig({ integration: true });
