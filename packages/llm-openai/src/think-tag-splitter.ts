/** A piece of streamed content, sorted: visible text, or reasoning that was inside `<think>` tags. */
export interface ContentPiece {
  readonly kind: 'text' | 'reasoning';
  readonly text: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * Splits reasoning sent inside `<think>...</think>` in the content (DeepSeek R1 and other reasoning
 * models on hosts without a reasoning parser) out of the visible text, as the content streams in.
 * A tag may be cut anywhere across deltas: the end of a delta that could be the start of a tag is
 * held back until the next delta (or `flush`) shows what it is. There may be several blocks. The
 * visible text's leading whitespace is dropped (what a model writes between `</think>` and the
 * answer is layout, not answer). Never throws.
 */
export class ThinkTagSplitter {
  #inside = false;
  #held = '';
  #textStarted = false;

  /** Takes one content delta; returns the pieces that are certain so far. */
  push(delta: string): ContentPiece[] {
    const pieces: ContentPiece[] = [];
    let rest = this.#held + delta;
    this.#held = '';
    for (;;) {
      const tag = this.#inside ? CLOSE : OPEN;
      const at = rest.indexOf(tag);
      if (at === -1) {
        const keep = partialTagLength(rest, tag);
        this.#emit(rest.slice(0, rest.length - keep), pieces);
        this.#held = rest.slice(rest.length - keep);
        return pieces;
      }
      this.#emit(rest.slice(0, at), pieces);
      rest = rest.slice(at + tag.length);
      this.#inside = !this.#inside;
    }
  }

  /** The content ended: whatever was held back is what it looked like (a cut tag stays as text). */
  flush(): ContentPiece[] {
    const pieces: ContentPiece[] = [];
    this.#emit(this.#held, pieces);
    this.#held = '';
    return pieces;
  }

  #emit(text: string, pieces: ContentPiece[]): void {
    if (this.#inside) {
      if (text !== '') pieces.push({ kind: 'reasoning', text });
      return;
    }
    const visible = this.#textStarted ? text : text.trimStart();
    if (visible === '') return;
    this.#textStarted = true;
    pieces.push({ kind: 'text', text: visible });
  }
}

/** The length of the longest end of `text` that is a proper start of `tag`. */
function partialTagLength(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(tag.slice(0, length))) return length;
  }
  return 0;
}
