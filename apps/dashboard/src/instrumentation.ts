/** Next calls this once when a server starts: a bad environment stops it before it serves. */
export async function register(): Promise<void> {
  // Pages render on Node only; the edge bundle of this file has no `process.exit`.
  if (process.env['NEXT_RUNTIME'] !== 'nodejs') return;
  const { loadEnv, envSchema } = await import('./env');
  loadEnv(envSchema);
}
