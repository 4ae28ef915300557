import { readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { ExtensionsError } from '../extensions-error.js';
import { parseFrontMatter } from '../front-matter/parse-front-matter.js';
import type { ExtensionRoot, LoadProblem } from '../load-problem.js';
import { parseToolList } from '../tool-access/tool-list.js';
import type { AgentDefinition } from './agent-definition.js';

/** What `loadAgentDefinitions` found. */
export interface LoadedAgents {
  readonly agents: readonly AgentDefinition[];
  readonly problems: readonly LoadProblem[];
}

/** A tool's name: what the agent becomes in the harness. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Reads the `*.md` files of each root as subagent definitions (Claude Code's format): front
 * matter `name` (default: the file's name), `description` (required), `tools` (a list or a
 * comma-separated string; absent: every tool), `model`; the body is the system prompt. A name an
 * earlier root took, or one in `reserved` (the harness's tools), is a problem. Throws
 * `INVALID_OPTIONS` for bad roots.
 */
export async function loadAgentDefinitions(roots: readonly ExtensionRoot[], reserved: readonly string[] = []): Promise<LoadedAgents> {
  if (!Array.isArray(roots) || !roots.every((root) => typeof root?.dir === 'string' && typeof root.source === 'string')) {
    throw new ExtensionsError('INVALID_OPTIONS', 'loadAgentDefinitions: roots must be a list of { dir, source }.');
  }
  const agents = new Map<string, AgentDefinition>();
  const problems: LoadProblem[] = [];
  for (const root of roots) {
    let names: string[];
    try {
      names = (await readdir(resolve(root.dir))).filter((name) => name.endsWith('.md')).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const agent = await readAgent(join(resolve(root.dir), name), root.source, problems);
      if (agent === undefined) continue;
      const taken = agents.get(agent.name);
      if (taken !== undefined || reserved.includes(agent.name)) {
        problems.push({ file: agent.file, reason: `not loaded: the name ${agent.name} is taken by ${taken === undefined ? 'a tool of the harness' : `${taken.file} (${taken.source})`}` });
        continue;
      }
      agents.set(agent.name, agent);
    }
  }
  return { agents: [...agents.values()], problems };
}

async function readAgent(file: string, source: string, problems: LoadProblem[]): Promise<AgentDefinition | undefined> {
  const skip = (reason: string) => {
    problems.push({ file, reason: `not loaded: ${reason}` });
    return undefined;
  };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return skip(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let parsed;
  try {
    parsed = await parseFrontMatter(text);
  } catch (error) {
    return skip((error as Error).message);
  }
  if (parsed.lenient !== undefined) problems.push({ file, reason: parsed.lenient });
  const { data, body } = parsed;
  const name = data.name ?? basename(file, '.md');
  if (typeof name !== 'string' || !NAME.test(name)) return skip(`name must be letters, digits, _ and - (at most 64), got ${JSON.stringify(name)}`);
  if (typeof data.description !== 'string' || data.description.trim() === '') return skip('its front matter needs a description (when to delegate to it)');
  if (body.trim() === '') return skip('its body (the system prompt) is empty');
  let rules;
  try {
    rules = parseToolList(data.tools, 'tools');
  } catch (error) {
    return skip((error as Error).message);
  }
  const model = typeof data.model === 'string' && data.model.trim() !== '' ? data.model.trim() : undefined;
  return Object.freeze({
    name,
    description: data.description.trim(),
    ...(rules === undefined ? {} : { tools: [...new Set(rules.map((rule) => rule.tool))] }),
    ...(model === undefined ? {} : { model }),
    system: body.trim(),
    file,
    source,
    bytes: Buffer.byteLength(text),
    frontMatter: data,
  });
}
