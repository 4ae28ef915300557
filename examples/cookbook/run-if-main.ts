import { pathToFileURL } from 'node:url';

/** Runs a recipe's `main` and prints its transcript when the file is run as a program. */
export async function runIfMain(moduleUrl: string, main: () => Promise<string[]>): Promise<void> {
  if (process.argv[1] === undefined || pathToFileURL(process.argv[1]).href !== moduleUrl) return;
  for (const line of await main()) console.log(line);
}

/** One transcript line per result: `<label> -> ok: <content>` or `<label> -> <CODE>: <message>`. */
export function describeResult(label: string, result: { ok: boolean; content: string; error?: { code: string; message: string } }): string {
  return result.ok ? `${label} -> ok: ${result.content}` : `${label} -> ${result.error!.code}: ${result.error!.message}`;
}
