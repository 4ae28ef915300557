import { describe, expect, it } from 'vitest';
import { ResourceUpdates } from './resource-updates.js';

describe('ResourceUpdates', () => {
  it('tells each change of a subscribed resource once, and nothing of others', () => {
    const updates = new ResourceUpdates('docs', 'docs__resources');
    updates.add('file:///a');
    updates.updated('file:///a');
    updates.updated('file:///a');
    updates.updated('file:///never-subscribed');
    expect(updates.take()).toBe('[mcp: A resource of the server "docs" you subscribed to changed: file:///a. Read it again with docs__resources action "read" if it matters to the task.]');
    expect(updates.take()).toBeUndefined();
  });

  it('forgets a change once the resource is read or unsubscribed, and ignores updates after the unsubscribe', () => {
    const updates = new ResourceUpdates('docs', 'docs__resources');
    updates.add('file:///a');
    updates.add('file:///b');
    updates.updated('file:///a');
    updates.updated('file:///b');
    updates.read('file:///a');
    updates.delete('file:///b');
    expect(updates.take()).toBeUndefined();
    updates.updated('file:///b');
    expect(updates.take()).toBeUndefined();
    expect(updates.subscribed()).toEqual(['file:///a']);
  });

  it('names at most 20 resources in one note and counts the rest', () => {
    const updates = new ResourceUpdates('docs', 'docs__resources');
    for (let i = 0; i < 25; i += 1) {
      updates.add(`file:///${i}`);
      updates.updated(`file:///${i}`);
    }
    const note = updates.take()!;
    expect(note).toContain('25 resources of the server "docs"');
    expect(note).toContain('file:///19 and 5 more.');
    expect(note).not.toContain('file:///20');
  });
});
