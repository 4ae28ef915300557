import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { definePlugin, type Plugin } from '@weir/core';
import type { LoadProblem } from '../load-problem.js';
import { DEFAULT_MAX_INSTRUCTION_BYTES, instructionFileNames, type InstructionFile } from './instruction-file.js';
import { readInstructionText } from './read-instruction-text.js';

/** Options of `nestedInstructions`. */
export interface NestedInstructionsOptions {
  /** The workspace: folders below it may hold their own instruction files. */
  readonly workspace: string;
  /** File names read in each folder. Default `['AGENTS.md']`. */
  readonly fileNames?: readonly string[];
  /** Real paths already in the system prompt (`ProjectInstructions.seen`): never joined twice. */
  readonly seen?: ReadonlySet<string>;
  /** Cap on one joined file, in bytes. Default 32 KiB. */
  readonly maxBytes?: number;
}

/** The plugin, and what it joined so far (for `/context`). */
export interface NestedInstructions {
  readonly plugin: Plugin;
  joined(): readonly InstructionFile[];
  problems(): readonly LoadProblem[];
}

/**
 * The instruction files of folders below the workspace, joined when the agent first works there:
 * after a call to a tool that declares file paths (`files` in its definition: read_file,
 * list_dir, write_file, ...) names a path in `a/b/`, the `AGENTS.md` of `a/` and of `a/b/` not yet
 * joined are added to that call's result (a postExecute `addContext`), outermost first. The system
 * prompt stays as it was (a provider's prompt cache keeps it) and the model reads them beside the
 * first thing it saw there. Each folder is looked at once per plugin load.
 */
export function nestedInstructions(options: NestedInstructionsOptions): NestedInstructions {
  const workspace = resolve(options.workspace);
  const names = options.fileNames ?? instructionFileNames();
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_INSTRUCTION_BYTES;
  const seen = new Set(options.seen ?? []);
  const visited = new Set<string>([workspace]);
  const joined: InstructionFile[] = [];
  const problems: LoadProblem[] = [];

  const join_ = async (folder: string): Promise<string | undefined> => {
    const parts: string[] = [];
    for (const dir of foldersBelow(workspace, folder)) {
      if (visited.has(dir)) continue;
      visited.add(dir);
      for (const name of names) {
        const read = await readInstructionText(join(dir, name), problems);
        if (read === undefined || seen.has(read.real)) continue;
        seen.add(read.real);
        const bytes = Buffer.byteLength(read.text);
        const text = bytes <= maxBytes ? read.text.trim() : `${Buffer.from(read.text).subarray(0, maxBytes).toString('utf8')}\n[weir cut this file at ${maxBytes} of ${bytes} bytes]`;
        joined.push({ path: read.path, source: 'nested', bytes, keptBytes: Math.min(bytes, maxBytes) });
        const rel = relative(workspace, read.path);
        parts.push(`Instructions from ${rel} (they apply to work in ${relative(workspace, dir)}${sep}):\n\n${text}`);
      }
    }
    return parts.length === 0 ? undefined : parts.join('\n\n');
  };

  return {
    joined: () => joined,
    problems: () => problems,
    plugin: definePlugin({
      name: 'nested-instructions',
      setup(ctx) {
        ctx.hooks.postExecute.tapPromise(async (result, call) => {
          const files = call.tool?.files;
          if (files === undefined || !result.ok) return undefined;
          const args = (typeof call.rawArguments === 'object' ? call.rawArguments : safeParse(call.rawArguments)) as Record<string, unknown>;
          const texts: string[] = [];
          for (const path of files.paths) {
            const value = path.argument.includes('.') || path.argument.includes('[') ? undefined : (args[path.argument] ?? path.default);
            if (typeof value !== 'string') continue;
            const target = resolve(workspace, value);
            const rel = relative(workspace, target);
            if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) continue;
            const folder = (await isDirectory(target)) ? target : dirname(target);
            const text = await join_(folder);
            if (text !== undefined) texts.push(text);
          }
          return texts.length === 0 ? undefined : { action: 'addContext', text: texts.join('\n\n') };
        });
      },
    }),
  };
}

/** The folders from just below `workspace` down to `folder`. */
function foldersBelow(workspace: string, folder: string): string[] {
  const out: string[] = [];
  for (let dir = folder; dir !== workspace && dir.startsWith(workspace + sep); dir = dirname(dir)) out.unshift(dir);
  return out;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) ?? {};
  } catch {
    return {};
  }
}
