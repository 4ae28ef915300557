import type { McpPrompt, McpPromptResult, McpServerPlugin } from '@weir/mcp';
import { describe, expect, it } from 'vitest';
import { mcpPromptCommands, mcpPromptLine, parsePromptArguments } from './mcp-prompt-command.js';

const review: McpPrompt = { name: 'review', arguments: [{ name: 'file', required: true }, { name: 'focus', required: false }] };
function serverOf(name: string, prompts: McpPrompt[], answer: (prompt: string, args: Record<string, string>) => McpPromptResult = () => ({ messages: [] })): McpServerPlugin {
  return { name: `mcp:${name}`, server: name, setup() {}, prompts: () => prompts, getPrompt: async (prompt: string, args: Readonly<Record<string, string>>) => answer(prompt, { ...args }) } as unknown as McpServerPlugin;
}
const [command] = mcpPromptCommands([serverOf('docs', [review])]);

describe('parsePromptArguments', () => {
  it('fills positional words in order, name=value by name, quoted values whole', () => {
    expect(parsePromptArguments(command!, ' a.ts')).toEqual({ ok: true, args: { file: 'a.ts' } });
    expect(parsePromptArguments(command!, ' focus="the names" a.ts')).toEqual({ ok: true, args: { file: 'a.ts', focus: 'the names' } });
    expect(parsePromptArguments(command!, " 'my file.ts' naming")).toEqual({ ok: true, args: { file: 'my file.ts', focus: 'naming' } });
    // A word with = whose name is not an argument is a value.
    expect(parsePromptArguments(command!, ' x=1')).toEqual({ ok: true, args: { file: 'x=1' } });
  });

  it('a missing required argument, one given twice, or too many are one-line errors naming the usage', () => {
    expect(parsePromptArguments(command!, ' focus=naming')).toEqual({ ok: false, error: '/mcp__docs__review: missing the required argument "file" (usage: /mcp__docs__review <file> [focus])' });
    expect(parsePromptArguments(command!, ' file=a file=b')).toMatchObject({ ok: false, error: expect.stringContaining('the argument "file" is given twice') });
    expect(parsePromptArguments(command!, ' a b c')).toMatchObject({ ok: false, error: expect.stringContaining('too many arguments: "c"') });
  });

  it('an argument named __proto__ is an ordinary value', () => {
    const [odd] = mcpPromptCommands([serverOf('docs', [{ name: 'odd', arguments: [{ name: '__proto__', required: true }] }])]);
    const parsed = parsePromptArguments(odd!, ' __proto__=x');
    expect(parsed).toEqual({ ok: true, args: Object.fromEntries([['__proto__', 'x']]) });
  });
});

describe('mcpPromptCommands and mcpPromptLine', () => {
  it('names each prompt /mcp__<server>__<prompt>, illegal characters as _, the first of a clash kept', () => {
    const names = mcpPromptCommands([serverOf('a', [{ name: 'x y', arguments: [] }, { name: 'x_y', arguments: [] }]), serverOf('b', [review])]).map((entry) => entry.command);
    expect(names).toEqual(['/mcp__a__x_y', '/mcp__b__review']);
  });

  it('joins the messages into one turn: all text as one string, else parts with an assistant message marked', async () => {
    const texts = serverOf('docs', [review], (_, args) => ({ messages: [{ role: 'user', parts: [{ type: 'text', text: `Review ${args.file}.` }] }, { role: 'user', parts: [{ type: 'text', text: 'Be brief.' }] }] }));
    expect(await mcpPromptLine([texts], '/mcp__docs__review a.ts')).toEqual({ kind: 'turn', command: '/mcp__docs__review', content: 'Review a.ts.\n\nBe brief.' });
    const image = { type: 'image' as const, data: 'AAAA', mediaType: 'image/png' };
    const mixed = serverOf('docs', [review], () => ({ messages: [{ role: 'user', parts: [image] }, { role: 'assistant', parts: [{ type: 'text', text: 'Sure.' }] }] }));
    expect(await mcpPromptLine([mixed], '/mcp__docs__review a.ts')).toEqual({
      kind: 'turn',
      command: '/mcp__docs__review',
      content: [image, { type: 'text', text: "[The prompt /mcp__docs__review gives this as the assistant's words:]" }, { type: 'text', text: 'Sure.' }],
    });
  });

  it('another line is none; an unknown prompt or a server that fails is an error, never a rejection', async () => {
    const failing = { ...serverOf('docs', [review]), getPrompt: async () => Promise.reject(new Error('The MCP server "docs" went away.')) } as McpServerPlugin;
    expect(await mcpPromptLine([failing], '/help')).toEqual({ kind: 'none' });
    expect(await mcpPromptLine([failing], '/mcp__docs__nope')).toEqual({ kind: 'error', message: '/mcp__docs__nope is not a prompt of a loaded MCP server; the prompts: /mcp__docs__review.' });
    expect(await mcpPromptLine([failing], '/mcp__docs__review a.ts')).toEqual({ kind: 'error', message: '/mcp__docs__review: The MCP server "docs" went away.' });
  });
});
