import { describe, expect, it } from 'vitest';
import { ThinkTagSplitter, type ContentPiece } from './think-tag-splitter.js';

/** Feeds `deltas`, flushes, and joins the pieces by kind. */
function split(deltas: readonly string[]): { text: string; reasoning: string; pieces: ContentPiece[] } {
  const splitter = new ThinkTagSplitter();
  const pieces = [...deltas.flatMap((delta) => splitter.push(delta)), ...splitter.flush()];
  const join = (kind: ContentPiece['kind']) => pieces.filter((piece) => piece.kind === kind).map((piece) => piece.text).join('');
  return { text: join('text'), reasoning: join('reasoning'), pieces };
}

const R1 = '<think>\nThe user wants 2+2.\n</think>\n\n2 + 2 = 4.';

describe('ThinkTagSplitter', () => {
  it('moves a <think> block out of the text', () => {
    expect(split([R1])).toMatchObject({ text: '2 + 2 = 4.', reasoning: '\nThe user wants 2+2.\n' });
  });

  it('gives the same result however the content is cut, tags included', () => {
    for (let size = 1; size <= R1.length; size++) {
      const deltas: string[] = [];
      for (let at = 0; at < R1.length; at += size) deltas.push(R1.slice(at, at + size));
      expect(split(deltas), `cut every ${size} characters`).toMatchObject({ text: '2 + 2 = 4.', reasoning: '\nThe user wants 2+2.\n' });
    }
  });

  it('never emits a piece of a tag as text', () => {
    const { pieces } = split(['<th', 'ink>why</thi', 'nk>ok']);
    expect(pieces).toEqual([
      { kind: 'reasoning', text: 'why' },
      { kind: 'text', text: 'ok' },
    ]);
  });

  it('reads several blocks, and leaves text without tags alone', () => {
    expect(split(['a <think>x</think> b <think>y</think> c'])).toMatchObject({ text: 'a  b  c', reasoning: 'xy' });
    expect(split(['plain ', 'text < 3'])).toMatchObject({ text: 'plain text < 3', reasoning: '' });
  });

  it('keeps a cut-off tag at the end as text, and an unclosed block as reasoning', () => {
    expect(split(['done <thi'])).toMatchObject({ text: 'done <thi', reasoning: '' });
    expect(split(['<think>still thinking'])).toMatchObject({ text: '', reasoning: 'still thinking' });
  });
});
