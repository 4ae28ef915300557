import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { defineTool, HarnessError, ToolRegistry, type ToolDefinition } from '../index.js';

const tool = (overrides: Partial<ToolDefinition> = {}): ToolDefinition =>
  defineTool({
    name: 'read_note',
    description: 'Reads a note by title.',
    tier: 'read-only',
    parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    execute: () => 'note',
    ...overrides,
  } as ToolDefinition);

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof HarnessError ? error.code : `not a HarnessError: ${String(error)}`;
  }
  return 'did not throw';
};

describe('ToolRegistry', () => {
  it('registers a tool and returns an idempotent disposer that removes exactly that registration', () => {
    const registry = new ToolRegistry();
    const dispose = registry.register(tool());
    expect(registry.names()).toEqual(['read_note']);
    dispose();
    expect(registry.get('read_note')).toBeUndefined();
    const again = registry.register(tool({ description: 'A newer registration of the same name.' }));
    dispose();
    expect(registry.get('read_note')?.description).toBe('A newer registration of the same name.');
    again();
    again();
    expect(registry.size).toBe(0);
  });

  it.each([
    ['a duplicate name', 'DUPLICATE_TOOL', (registry: ToolRegistry) => (registry.register(tool()), registry.register(tool()))],
    ['a name with spaces', 'INVALID_TOOL_NAME', (registry: ToolRegistry) => registry.register(tool({ name: 'read note' }))],
    ['an empty name', 'INVALID_TOOL_NAME', (registry: ToolRegistry) => registry.register(tool({ name: '' }))],
    ['a 65-character name', 'INVALID_TOOL_NAME', (registry: ToolRegistry) => registry.register(tool({ name: 'x'.repeat(65) }))],
    ['a misspelt type', 'INVALID_SCHEMA', (registry: ToolRegistry) => registry.register(tool({ parameters: { type: 'object', properties: { a: { type: 'strng' } } } }))],
    ['a non-object schema', 'INVALID_SCHEMA', (registry: ToolRegistry) => registry.register(tool({ parameters: { type: 'string' } }))],
    ['a schema that is not an object', 'INVALID_SCHEMA', (registry: ToolRegistry) => registry.register(tool({ parameters: 'object' as never }))],
    ['an invalid output schema', 'INVALID_SCHEMA', (registry: ToolRegistry) => registry.register(tool({ output: { schema: { type: 12 } } }))],
    ['no description', 'INVALID_TOOL', (registry: ToolRegistry) => registry.register(tool({ description: ' ' }))],
    ['no execute', 'INVALID_TOOL', (registry: ToolRegistry) => registry.register(tool({ execute: undefined as never }))],
    ['an unknown tier', 'INVALID_TOOL', (registry: ToolRegistry) => registry.register(tool({ tier: 'harmless' as never }))],
    ['a zero timeout', 'INVALID_TOOL', (registry: ToolRegistry) => registry.register(tool({ timeoutMs: 0 }))],
  ])('refuses %s at registration with %s', (_label, code, register) => {
    const registry = new ToolRegistry();
    expect(codeOf(() => register(registry))).toBe(code);
  });

  it('leaves the registry as it was after a refused registration', () => {
    const registry = new ToolRegistry();
    registry.register(tool());
    expect(() => registry.register(tool({ name: 'broken', parameters: { type: 'object', properties: { a: { type: 'nope' } } } }))).toThrow(HarnessError);
    expect(registry.names()).toEqual(['read_note']);
  });

  it('accepts draft-07 and 2020-12 schemas', () => {
    const registry = new ToolRegistry();
    registry.register(
      tool({
        name: 'draft07',
        parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions: { id: { type: 'integer' } }, properties: { id: { $ref: '#/definitions/id' } } },
      }),
    );
    registry.register(
      tool({
        name: 'draft2020',
        parameters: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', $defs: { id: { type: 'integer' } }, properties: { id: { $ref: '#/$defs/id' } } },
      }),
    );
    for (const name of ['draft07', 'draft2020']) {
      const validate = registry.get(name)!.arguments.validate;
      expect(validate({ id: 3 })).toEqual({ ok: true, value: { id: 3 } });
      expect(validate({ id: 'three' })).toMatchObject({ ok: false });
    }
  });

  it('checks formats (ajv-formats)', () => {
    const registry = new ToolRegistry();
    registry.register(tool({ name: 'mail', parameters: { type: 'object', properties: { to: { type: 'string', format: 'email' } } } }));
    const validate = registry.get('mail')!.arguments.validate;
    expect(validate({ to: 'a@example.com' })).toMatchObject({ ok: true });
    expect(validate({ to: 'not an address' })).toMatchObject({ ok: false });
  });

  it('compiles a schema on its first validation, not at registration, and then reuses it; an equal schema is not compiled again', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    // Content no earlier test compiled: validators are cached by the schema's text.
    const unique = randomUUID();
    const schemas = () => ({
      parameters: { type: 'object', properties: { title: { type: 'string', description: unique } }, required: ['title'] },
      output: { schema: { type: 'string', description: unique } },
    });
    const registry = new ToolRegistry();
    const dispose = registry.register(tool(schemas()));
    expect(compile).toHaveBeenCalledTimes(0);
    const validate = registry.get('read_note')!.arguments.validate;
    expect(validate({ title: 'first' })).toMatchObject({ ok: true });
    expect(compile).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 100; i += 1) validate({ title: `n${i}` });
    expect(compile).toHaveBeenCalledTimes(1);
    registry.get('read_note')!.outputSchema!.validate('x');
    expect(compile).toHaveBeenCalledTimes(2);
    // A plugin reloaded with fresh but equal schema objects reuses the compiled validators.
    dispose();
    registry.register(tool(schemas()));
    expect(registry.get('read_note')!.arguments.validate({ title: 1 })).toMatchObject({ ok: false });
    expect(compile).toHaveBeenCalledTimes(2);
    compile.mockRestore();
  });

  it('registers 3,000 tools without compiling one (the event loop bound is measured in @weir/mcp, through a real refresh)', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const registry = new ToolRegistry();
    for (let i = 0; i < 3_000; i += 1) {
      registry.register(tool({ name: `t${i}`, parameters: { type: 'object', properties: { [`q${i}`]: { type: 'string', pattern: `^${i}` } }, required: [`q${i}`] } }));
    }
    expect(registry.size).toBe(3_000);
    expect(compile).toHaveBeenCalledTimes(0);
    compile.mockRestore();
  });

  it('a schema Ajv refuses registers, and every validation reports it as the schema\'s fault, compiled once, never thrown', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const registry = new ToolRegistry();
    registry.register(tool({ parameters: { type: 'object', properties: { note: { $ref: `#/$defs/missing${randomUUID()}` } } } }));
    const validate = registry.get('read_note')!.arguments.validate;
    const first = validate({ note: 'x' });
    expect(first).toMatchObject({ ok: false, schemaError: expect.stringMatching(/^tool "read_note" parameters: invalid JSON Schema: can't resolve reference/) });
    expect(validate({ note: 'y' })).toBe(first);
    expect(compile).toHaveBeenCalledTimes(1);
    compile.mockRestore();
  });

  it.each([
    ['required that is not a list', { type: 'object', required: 'title' }, '/required: must be a list of property names'],
    ['a pattern that is not a regular expression', { type: 'object', properties: { a: { type: 'string', pattern: '(' } } }, '/properties/a/pattern: Invalid regular expression'],
    ['a property that is not a schema', { type: 'object', properties: { a: 'string' } }, '/properties/a: a schema must be an object or a boolean, got string'],
    ['an empty anyOf', { type: 'object', properties: { a: { anyOf: [] } } }, '/properties/a/anyOf: must be a non-empty list of schemas'],
    ['a type deep in items', { type: 'object', properties: { a: { type: 'array', items: { type: 'text' } } } }, '/properties/a/items/type: "text" is not a JSON Schema type'],
  ])('the shape check at registration still refuses %s (INVALID_SCHEMA, with the pointer)', (_, parameters, message) => {
    let caught: unknown;
    try {
      new ToolRegistry().register(tool({ parameters }));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HarnessError);
    expect((caught as HarnessError).code).toBe('INVALID_SCHEMA');
    expect((caught as HarnessError).message).toContain(message);
  });

  it('takes a changed schema that keeps its $id (a tool edited between reloads)', () => {
    const registry = new ToolRegistry();
    const id = `https://example.com/${randomUUID()}.json`;
    const withType = (type: string) => tool({ parameters: { $id: id, type: 'object', properties: { title: { type } }, required: ['title'] } });
    registry.register(withType('string'))();
    registry.register(withType('number'));
    expect(registry.get('read_note')!.arguments.validate({ title: 3 })).toMatchObject({ ok: true });
    expect(registry.get('read_note')!.arguments.validate({ title: 'three' })).toMatchObject({ ok: false });
  });

  it('gives the model view without execute, cached until the registry changes', () => {
    const registry = new ToolRegistry();
    const dispose = registry.register(tool());
    const view = registry.schemas();
    expect(view).toEqual([{ name: 'read_note', description: 'Reads a note by title.', parameters: tool().parameters }]);
    expect(Object.keys(view[0]!)).toEqual(['name', 'description', 'parameters']);
    expect(JSON.stringify(view)).not.toContain('execute');
    expect(registry.schemas()).toBe(view);
    expect(Object.isFrozen(view)).toBe(true);
    dispose();
    expect(registry.schemas()).toEqual([]);
  });

  it('gives the model the JSON Schema of a Standard Schema', () => {
    const registry = new ToolRegistry();
    registry.register(tool({ name: 'zod_tool', parameters: z.object({ path: z.string().describe('A file path') }) }));
    const [schema] = registry.schemas();
    expect(schema?.parameters).toMatchObject({ type: 'object', properties: { path: { type: 'string', description: 'A file path' } }, required: ['path'] });
  });

  it('gives the whole definition in the execution view, with the tier defaulting to dangerous', () => {
    const registry = new ToolRegistry();
    const definition = tool({ tier: undefined });
    registry.register(definition);
    const registered = registry.get('read_note')!;
    expect(registered.execute).toBe(definition.execute);
    expect(registered.definition).toBe(definition);
    expect(registered.tier).toBe('dangerous');
  });
});
