import { parseArgs } from 'node:util';
import { relative } from 'node:path';
import { scaffoldPlugin } from './scaffold-plugin.js';

export const USAGE = `Usage: npm create @weir/plugin <folder> [-- --name <package-name>]
       npx @weir/create-plugin <folder> [--name <package-name>]

Makes a weir plugin package in <folder> (absent or empty): a tool, a skill, a test that runs
weir's conformance kit, a README and a changeset config. The package is named after the folder
unless --name says otherwise.`;

/**
 * The scaffolder's command line: resolves to the exit status (2 for a usage error, 1 when the
 * package cannot be made), printing one `[error]` line on standard error. Never rejects.
 */
export async function main(args: readonly string[], cwd = process.cwd()): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { name: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`[error] ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    process.stderr.write(`[error] give one folder to make the package in (got ${parsed.positionals.length}).\n${USAGE}\n`);
    return 2;
  }
  try {
    const made = await scaffoldPlugin({ dir: parsed.positionals[0]!, ...(parsed.values.name === undefined ? {} : { name: parsed.values.name }) });
    const where = relative(cwd, made.dir) || '.';
    process.stdout.write(
      `Made ${made.packageName} (plugin "${made.pluginName}") in ${where}: ${made.files.length} files.\n` +
        `Next: cd ${where} && npm install && npm test\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`[error] ${(error as Error).message}\n`);
    return 1;
  }
}
