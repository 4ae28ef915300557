import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../../tools/tool-registry.js';
import { rankTools, splitWords } from './rank-tools.js';

const tool = (name: string, description: string, properties: Record<string, unknown> = {}): ToolSchema => ({ name, description, parameters: { type: 'object', properties } });

const tools = [
  tool('billing__list_invoices', 'Lists the invoices of a customer.', { customer: { type: 'string' } }),
  tool('billing__refund_invoice', 'Refunds an invoice, in whole or in part.', { invoice_id: { type: 'string', description: 'The invoice to refund.' } }),
  tool('calendar__create_event', 'Creates an event in a calendar.', { title: { type: 'string' } }),
  tool('fs__readTextFile', 'Reads a file as text.'),
];

describe('rankTools', () => {
  it('splits names and text into lowercase words, camelCase and namespaces included', () => {
    expect(splitWords('fs__readTextFile')).toEqual(['fs', 'read', 'text', 'file']);
    expect(splitWords('Refunds an invoice, in part.')).toEqual(['refunds', 'an', 'invoice', 'in', 'part']);
  });

  it('ranks the tool whose name holds the words first, prefixes counting (refund finds refunds)', () => {
    expect(rankTools(tools, 'refund an invoice', 5).map((t) => t.name)).toEqual(['billing__refund_invoice', 'billing__list_invoices']);
    expect(rankTools(tools, 'read text file', 5).map((t) => t.name)).toEqual(['fs__readTextFile']);
  });

  it('takes an exact name as that tool alone, and leaves out tools that match no word', () => {
    expect(rankTools(tools, 'calendar__create_event', 5).map((t) => t.name)).toEqual(['calendar__create_event']);
    expect(rankTools(tools, 'weather forecast', 5)).toEqual([]);
  });

  it('keeps at most limit tools, ties in the given order', () => {
    expect(rankTools(tools, 'billing', 1).map((t) => t.name)).toEqual(['billing__list_invoices']);
  });
});
