import { envFields, EnvValidationError, parseEnv } from '@sluice/config';
import { createPrismaClient, type Role } from '@sluice/db';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { newPasswordSchema } from '../auth/passwords';
import { createUser, UserExistsError, UserInputError, type NewUser } from './create-user';

/** sysexits(3): what a script calling the CLI can tell apart. */
export const EXIT = { ok: 0, usage: 64, dataError: 65, exists: 73, config: 78 } as const;

const USAGE = `Usage: node dist/cli.js create-operator --email <email> [--name <name>]
       node dist/cli.js create-member --email <email> --tenant <slug> [--role admin|viewer] [--name <name>]

create-operator makes a platform operator; create-member a member of a tenant (admin by default).
The password comes from SLUICE_OPERATOR_PASSWORD (create-operator) or SLUICE_USER_PASSWORD
(create-member), at least 12 characters, or is generated and printed once. Needs DATABASE_URL.

Exit status: 0 created, 64 usage, 65 invalid input (email, name, no such tenant), 73 the email
already has a user, 78 invalid environment (e.g. a password shorter than 12 characters).
`;

const cliEnvSchema = z.object({
  DATABASE_URL: envFields.databaseUrl(),
  SLUICE_OPERATOR_PASSWORD: newPasswordSchema.optional(),
  SLUICE_USER_PASSWORD: newPasswordSchema.optional(),
});

const MEMBER_ROLES: Record<string, Role> = { admin: 'tenant_admin', viewer: 'tenant_viewer' };

export interface CliOutput {
  write(line: string): void;
  error(line: string): void;
}

/** What the command line asks for, or a usage error's message. */
function parseCommand(argv: readonly string[]): Omit<NewUser, 'password'> | string {
  const { positionals, values } = parseArgs({
    args: [...argv],
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      tenant: { type: 'string' },
      role: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
  const [command, ...rest] = positionals;
  if (rest.length > 0 || !values.email) return 'a command and --email are required';
  if (command === 'create-operator' && !values.tenant && !values.role) {
    return { email: values.email, name: values.name, role: 'operator' };
  }
  if (command === 'create-member' && values.tenant) {
    const role = MEMBER_ROLES[values.role ?? 'admin'];
    if (!role) return '--role must be admin or viewer';
    return { email: values.email, name: values.name, role, tenant: values.tenant };
  }
  return `unknown command or options: ${argv.join(' ')}`;
}

/** The control-plane CLI; returns the exit status instead of exiting, so tests can run it. */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  output: CliOutput,
): Promise<number> {
  let request: Omit<NewUser, 'password'>;
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      output.write(USAGE);
      return EXIT.ok;
    }
    const parsed = parseCommand(argv);
    if (typeof parsed === 'string') {
      output.error(`${parsed}\n\n${USAGE}`);
      return EXIT.usage;
    }
    request = parsed;
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

  const operator = request.role === 'operator';
  const passwordVariable = operator ? 'SLUICE_OPERATOR_PASSWORD' : 'SLUICE_USER_PASSWORD';
  const prisma = createPrismaClient(cliEnv.DATABASE_URL, { maxConnections: 1 });
  try {
    const user = await createUser(prisma, { ...request, password: cliEnv[passwordVariable] });
    output.write(
      operator
        ? `Created operator ${user.email} (${user.id}).`
        : `Created ${request.role === 'tenant_admin' ? 'admin' : 'viewer'} ${user.email} of ${request.tenant} (${user.id}).`,
    );
    output.write(
      user.generated
        ? `Password (shown only now, store it safely): ${user.password}`
        : `Password: the one in ${passwordVariable}.`,
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UserInputError) {
      output.error(`Invalid ${error.message}.`);
      return EXIT.dataError;
    }
    if (error instanceof UserExistsError) {
      output.error(error.message);
      return EXIT.exists;
    }
    throw error;
  } finally {
    await prisma.$disconnect();
  }
}
