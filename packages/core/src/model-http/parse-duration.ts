const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
const PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/gy;

/**
 * Reads a rate-limit reset duration as OpenAI sends it (`6.4s`, `340ms`, `1m30s`, `1h2m3.5s`), or a
 * bare number of seconds (`"2"`). Returns milliseconds, or `undefined` for anything else, including
 * negative values. Never throws.
 */
export function parseDuration(text: string): number | undefined {
  const value = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(value)) return Number(value) * 1_000;
  if (value === '') return undefined;
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let match = PART.exec(value); match !== null; match = PART.exec(value)) {
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
    consumed = PART.lastIndex;
  }
  return consumed === value.length ? total : undefined;
}
