import { readFileSync } from 'node:fs';
import type { ScriptedResponse } from './loopback-server.js';

/** One case of `fixtures/openai-compat.json` (a copy of the shared fixtures, kept in the package so CI has it). */
export interface FixtureCase {
  readonly name: string;
  readonly description: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** SSE lines (`""` between events), or a body: a string as is, an object as JSON. */
  readonly body_or_sse_lines: readonly string[] | string | Readonly<Record<string, unknown>>;
  readonly expected_behaviour: string;
}

export const fixtureCases: readonly FixtureCase[] = JSON.parse(readFileSync(new URL('./fixtures/openai-compat.json', import.meta.url), 'utf8')) as FixtureCase[];

/** The case named `name`; throws when there is none (a renamed case must fail loudly). */
export function fixtureCase(name: string): FixtureCase {
  const found = fixtureCases.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`No fixture case named ${name}`);
  return found;
}

/** True when the case is a Server-Sent Events stream. */
export function isStreamCase(fixture: FixtureCase): fixture is FixtureCase & { body_or_sse_lines: readonly string[] } {
  return Array.isArray(fixture.body_or_sse_lines);
}

/** The case as the loopback server's answer, with delivery options (slices, cuts...) added. */
export function fixtureResponse(fixture: FixtureCase, delivery: Partial<ScriptedResponse> = {}): ScriptedResponse {
  const source = isStreamCase(fixture) ? { lines: fixture.body_or_sse_lines } : { body: fixture.body_or_sse_lines };
  return { status: fixture.status, headers: fixture.headers, ...source, ...delivery };
}
