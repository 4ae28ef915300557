import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type ToolExecution } from '../index.js';

describe('defineTool infers args', () => {
  it('from a JSON Schema literal, with required and optional properties', () => {
    defineTool({
      name: 'search',
      description: 'Searches.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          limit: { type: 'integer' },
          mode: { enum: ['fast', 'deep'] },
          tags: { type: 'array', items: { type: 'string' } },
          filter: { type: 'object', properties: { since: { type: 'string' } }, required: ['since'] },
        },
        required: ['query'],
      },
      execute: (args, exec) => {
        expectTypeOf(args.query).toEqualTypeOf<string>();
        expectTypeOf(args.limit).toEqualTypeOf<number | undefined>();
        expectTypeOf(args.mode).toEqualTypeOf<'fast' | 'deep' | undefined>();
        expectTypeOf(args.tags).toEqualTypeOf<string[] | undefined>();
        expectTypeOf(args.filter).toEqualTypeOf<{ since: string } | undefined>();
        expectTypeOf(exec).toEqualTypeOf<ToolExecution>();
        // @ts-expect-error: not a declared property
        void args.other;
        return args.query;
      },
    });
  });

  it('from a zod schema (Standard Schema), as the parsed output', () => {
    defineTool({
      name: 'count',
      description: 'Counts.',
      parameters: z.object({ n: z.number(), label: z.string().default('items'), note: z.string().optional() }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ n: number; label: string; note?: string | undefined }>();
        return args.n;
      },
    });
  });

  it('types the render function with the value the body returns', () => {
    defineTool({
      name: 'stats',
      description: 'Stats.',
      parameters: { type: 'object', properties: {} },
      execute: () => ({ total: 1 }),
      output: {
        render: (value) => {
          expectTypeOf(value).toEqualTypeOf<{ total: number }>();
          return String(value.total);
        },
      },
    });
  });
});
