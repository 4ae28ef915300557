// A module resolve hook (node:module register) for the cold-import test: after each resolution, it
// writes the URL of every module that comes from node_modules to stderr, one `LOADED <url>` line each.
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (result.url.includes('/node_modules/')) process.stderr.write(`LOADED ${result.url}\n`);
  return result;
}
