import { runOpsCommand } from '../commands/registry';

process.exitCode = await runOpsCommand(process.argv.slice(2), {
  env: process.env,
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  write: (text) => process.stderr.write(text),
  isTTY: process.stderr.isTTY,
});
