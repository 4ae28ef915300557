/** One instruction file as it joined (or did not join) the system prompt. */
export interface InstructionFile {
  readonly path: string;
  /** `user` (the person's own file), `project` (the workspace up to the repository root), `nested` (joined on first work in its folder), `import` (an `@path` line of another). */
  readonly source: 'user' | 'project' | 'nested' | 'import';
  /** Its size on disk, in bytes. */
  readonly bytes: number;
  /** The bytes that reached the prompt: `bytes`, fewer when the cap cut it, 0 when it did not fit at all. */
  readonly keptBytes: number;
  /** For an import, the file whose `@` line brought it. */
  readonly importedBy?: string;
}

/** Default cap on the instructions' total size: 32 KiB, Codex's default. */
export const DEFAULT_MAX_INSTRUCTION_BYTES = 32 * 1024;

/** The instruction file names weir reads: `AGENTS.md`, and with the compat switch on Claude Code's and Gemini CLI's own. */
export function instructionFileNames(compat: { readonly claude?: boolean } = {}): readonly string[] {
  return compat.claude === true ? ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'] : ['AGENTS.md'];
}
