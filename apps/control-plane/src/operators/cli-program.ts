import { envFields, EnvValidationError, parseEnv } from '@sluice/config';
import { createPrismaClient } from '@sluice/db';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { newPasswordSchema } from '../auth/passwords';
import { createOperator, OperatorExistsError, OperatorInputError } from './create-operator';

/** sysexits(3): what a script calling the CLI can tell apart. */
export const EXIT = { ok: 0, usage: 64, dataError: 65, exists: 73, config: 78 } as const;

const USAGE = `Usage: node dist/cli.js create-operator --email <email>

Creates a platform operator. The password comes from SLUICE_OPERATOR_PASSWORD (at least 12
characters) or is generated and printed once. Needs DATABASE_URL.

Exit status: 0 created, 64 usage, 65 invalid email, 73 the email already has a user, 78 invalid
environment (e.g. a SLUICE_OPERATOR_PASSWORD shorter than 12 characters).
`;

const cliEnvSchema = z.object({
  DATABASE_URL: envFields.databaseUrl(),
  SLUICE_OPERATOR_PASSWORD: newPasswordSchema.optional(),
});

export interface CliOutput {
  write(line: string): void;
  error(line: string): void;
}

/** The control-plane CLI; returns the exit status instead of exiting, so tests can run it. */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  output: CliOutput,
): Promise<number> {
  let email: string | undefined;
  try {
    const { positionals, values } = parseArgs({
      args: [...argv],
      options: { email: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
    if (values.help) {
      output.write(USAGE);
      return EXIT.ok;
    }
    if (positionals.length !== 1 || positionals[0] !== 'create-operator' || !values.email) {
      output.error(USAGE);
      return EXIT.usage;
    }
    email = values.email;
  } catch (error) {
    output.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return EXIT.usage;
  }

  let cliEnv: z.infer<typeof cliEnvSchema>;
  try {
    cliEnv = parseEnv(cliEnvSchema, env);
  } catch (error) {
    if (!(error instanceof EnvValidationError)) throw error;
    output.error(error.message);
    return EXIT.config;
  }

  const prisma = createPrismaClient(cliEnv.DATABASE_URL, { maxConnections: 1 });
  try {
    const operator = await createOperator(prisma, {
      email,
      password: cliEnv.SLUICE_OPERATOR_PASSWORD,
    });
    output.write(`Created operator ${operator.email} (${operator.id}).`);
    output.write(
      operator.generated
        ? `Password (shown only now, store it safely): ${operator.password}`
        : 'Password: the one in SLUICE_OPERATOR_PASSWORD.',
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof OperatorInputError) {
      output.error(`Invalid ${error.message}.`);
      return EXIT.dataError;
    }
    if (error instanceof OperatorExistsError) {
      output.error(error.message);
      return EXIT.exists;
    }
    throw error;
  } finally {
    await prisma.$disconnect();
  }
}
