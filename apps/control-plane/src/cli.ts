import { runCli } from './operators/cli-program';

// An unexpected error rejects; Node prints it and exits non-zero.
void runCli(process.argv.slice(2), process.env, {
  write: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
}).then((status) => {
  process.exitCode = status;
});
