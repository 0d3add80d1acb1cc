/** Console output of the dev tool: one prefix, so its lines stand out from the apps' JSON logs. */
export const log = {
  info: (message: string) => process.stdout.write(`[sluice] ${message}\n`),
  warn: (message: string) => process.stderr.write(`[sluice] warning: ${message}\n`),
  error: (message: string) => process.stderr.write(`[sluice] error: ${message}\n`),
};

/** A failure the user can act on: printed without a stack trace. */
export class SetupError extends Error {
  override name = 'SetupError';
}
