/** The path as the model sent it, without leading `./` (which names the same entry): nothing else changes. */
export function literalPath(value: string): string {
  let result = value;
  while (result.startsWith('./') && result.length > 2) result = result.slice(2);
  return result;
}
