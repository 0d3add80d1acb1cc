import { join } from 'node:path';
import type { NextConfig } from 'next';

// `next build` and the Next server load this file before they start telemetry, so this switches it
// off there (the `next dev` supervisor process does not read it; CI and the images set it too).
process.env['NEXT_TELEMETRY_DISABLED'] ??= '1';

/** The workspace root: node_modules and the libs live there, not in this app. */
const workspaceRoot = join(__dirname, '..', '..');

const nextConfig: NextConfig = {
  turbopack: { root: workspaceRoot },
  poweredByHeader: false,
};

export default nextConfig;
