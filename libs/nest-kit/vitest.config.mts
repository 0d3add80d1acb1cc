import { sharedConfig } from '../../vitest.shared.mjs';

export default sharedConfig({ decorators: true, integration: true });
