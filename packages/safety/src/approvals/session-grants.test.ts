import { describe, expect, it } from 'vitest';
import type { PathArgument } from '../rules/path-arguments.js';
import { SessionGrants, sessionScopeFor } from './session-grants.js';

function at(literal: string, relativePath?: string): PathArgument {
  return relativePath === undefined
    ? { argument: 'path', literal, canonical: undefined, refusal: { kind: 'no-sandbox', message: 'no sandbox' } }
    : { argument: 'path', literal, canonical: { path: `/ws/${relativePath}`, relativePath }, refusal: undefined };
}

describe('sessionScopeFor', () => {
  it('scopes a write tool to the directories of the resolved paths', () => {
    expect(sessionScopeFor('write_file', 'write', [at('src/app/a.ts', 'src/app/a.ts')], 'h', '/ws')).toEqual({
      kind: 'paths',
      toolName: 'write_file',
      root: '/ws',
      directories: ['src/app'],
      files: [],
      description: 'write_file on src/app/**',
    });
  });

  it('scopes a file in the root to exactly that file, not to the whole root', () => {
    expect(sessionScopeFor('write_file', 'write', [at('notes.md', 'notes.md')], 'h', '/ws')).toMatchObject({ kind: 'paths', directories: [], files: ['notes.md'], description: 'write_file on notes.md' });
  });

  it('scopes a dangerous tool, a call without paths and an unresolved path to the exact arguments', () => {
    expect(sessionScopeFor('run_command', 'dangerous', [at('src', 'src')], 'h1', '/ws')).toEqual({ kind: 'exact', toolName: 'run_command', root: '/ws', argumentsHash: 'h1', description: 'run_command with exactly these arguments' });
    expect(sessionScopeFor('write_file', 'write', [], 'h2', '/ws')).toMatchObject({ kind: 'exact', argumentsHash: 'h2' });
    expect(sessionScopeFor('write_file', 'write', [at('src/a.ts')], 'h3', '/ws')).toMatchObject({ kind: 'exact', argumentsHash: 'h3' });
  });
});

describe('SessionGrants', () => {
  const granted = () => {
    const grants = new SessionGrants();
    grants.add(sessionScopeFor('write_file', 'write', [at('src/a.ts', 'src/a.ts')], 'h', '/ws'));
    return grants;
  };

  it('covers the same tool on other paths inside the scope shown', () => {
    expect(granted().find('write_file', [at('src/b.ts', 'src/b.ts')], 'other', '/ws')).toBeDefined();
    expect(granted().find('write_file', [at('src/deep/c.ts', 'src/deep/c.ts')], 'other', '/ws')).toBeDefined();
    expect(granted().find('write_file', [at('./src/b.ts', 'src/b.ts')], 'other', '/ws')).toBeDefined();
  });

  it('never reaches another tool, even with the same arguments', () => {
    expect(granted().find('edit_file', [at('src/a.ts', 'src/a.ts')], 'h', '/ws')).toBeUndefined();
    expect(granted().find('run_command', [at('src/a.ts', 'src/a.ts')], 'h', '/ws')).toBeUndefined();
  });

  it.each([
    ['a sibling directory with the same prefix', at('src2/a.ts', 'src2/a.ts')],
    ['the directory itself', at('src', 'src')],
    ['a file in the root', at('a.ts', 'a.ts')],
    ['a literal that climbs out of the scope', at('src/../.env', '.env')],
    ['a link inside the scope that resolves outside it', at('src/link', 'secrets/key')],
    ['a link outside the scope that resolves inside it', at('other/a.ts', 'src/a.ts')],
    ['a path the sandbox did not resolve', at('src/b.ts')],
  ])('does not cover %s', (_name, path) => {
    expect(granted().find('write_file', [path], 'other', '/ws')).toBeUndefined();
  });

  it('needs every path of a call inside the scope', () => {
    expect(granted().find('write_file', [at('src/b.ts', 'src/b.ts'), at('lib/c.ts', 'lib/c.ts')], 'other', '/ws')).toBeUndefined();
    expect(granted().find('write_file', [], 'other', '/ws')).toBeUndefined();
  });

  it('an exact grant covers only the same arguments hash of the same tool', () => {
    const grants = new SessionGrants();
    grants.add(sessionScopeFor('run_command', 'dangerous', [], 'hash-1', '/ws'));
    expect(grants.find('run_command', [], 'hash-1', '/ws')).toBeDefined();
    expect(grants.find('run_command', [], 'hash-2', '/ws')).toBeUndefined();
    expect(grants.find('other_tool', [], 'hash-1', '/ws')).toBeUndefined();
  });

  it('a root-file grant covers that file only', () => {
    const grants = new SessionGrants();
    grants.add(sessionScopeFor('write_file', 'write', [at('notes.md', 'notes.md')], 'h', '/ws'));
    expect(grants.find('write_file', [at('notes.md', 'notes.md')], 'x', '/ws')).toBeDefined();
    expect(grants.find('write_file', [at('.env', '.env')], 'x', '/ws')).toBeUndefined();
  });

  it('belongs to the workspace root it was granted in', () => {
    expect(granted().find('write_file', [at('src/b.ts', 'src/b.ts')], 'other', '/other-ws')).toBeUndefined();
    const grants = new SessionGrants();
    grants.add(sessionScopeFor('run_command', 'dangerous', [], 'hash-1', '/ws'));
    expect(grants.find('run_command', [], 'hash-1', '/other-ws')).toBeUndefined();
    expect(grants.find('run_command', [], 'hash-1', undefined)).toBeUndefined();
  });

  it('clear() forgets everything', () => {
    const grants = granted();
    grants.clear();
    expect(grants.find('write_file', [at('src/b.ts', 'src/b.ts')], 'other', '/ws')).toBeUndefined();
  });
});
