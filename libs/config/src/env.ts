import { z } from 'zod';

/** Thrown (never a bare exit) so callers decide; `loadEnv` turns it into a clean exit at boot. */
export class EnvValidationError extends Error {
  constructor(readonly issues: readonly { variable: string; message: string }[]) {
    super(`Invalid environment:\n${issues.map((i) => `  ${i.variable}: ${i.message}`).join('\n')}`);
    this.name = 'EnvValidationError';
  }
}

/** Parses `env` with `schema`; every failure names the variable that caused it. */
export function parseEnv<S extends z.ZodObject>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new EnvValidationError(
    result.error.issues.map((issue) => ({
      variable: issue.path.map(String).join('.') || '(environment)',
      message: issue.message,
    })),
  );
}

/** Boot-time variant: prints which variables are wrong and exits with status 78 (EX_CONFIG). */
export function loadEnv<S extends z.ZodObject>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.infer<S> {
  try {
    return parseEnv(schema, env);
  } catch (error) {
    if (!(error instanceof EnvValidationError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
}

/** Shared building blocks so every app spells common variables the same way. */
export const envFields = {
  port: (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback),
  host: () => z.string().min(1).default('127.0.0.1'),
  redisUrl: () =>
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .default('redis://127.0.0.1:6379'),
  databaseUrl: () => z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL'),
  logLevel: () =>
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Prefix of every Redis key the app writes, so tests and demos can share one server. */
  keyPrefix: () =>
    z
      .string()
      .regex(/^[A-Za-z0-9:_-]*$/, 'letters, digits, ":", "_" and "-" only (no hash-tag braces)')
      .default('sluice:'),
};
