import packageJson from '../../../package.json';

// Liveness must be answered per request, never prerendered at build time.
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return Response.json({ status: 'ok', service: 'dashboard', version: packageJson.version });
}
