/**
 * The file's quotes for new_string, after a match that treated curly and straight quotes as one: the
 * file wrote `it’s` where old_string had `it's`, so the apostrophes new_string adds are curly too,
 * and a straight-quoted file edited with curly quotes gets straight ones. Learned per quote family
 * (single, double) and role (opening, closing, apostrophe) from the matched text, so a code file
 * with straight delimiters around a curly apostrophe (`'It’s done'`) keeps both.
 */

type Family = 'single' | 'double';
type Role = 'open' | 'close' | 'apostrophe';

const FAMILY: Readonly<Record<string, Family>> = {
  "'": 'single', '\u2018': 'single', '\u2019': 'single', '\u201a': 'single', '\u201b': 'single', '\u2032': 'single',
  '"': 'double', '\u201c': 'double', '\u201d': 'double', '\u201e': 'double', '\u201f': 'double', '\u2033': 'double',
};
const CURLY: Readonly<Record<Family, Readonly<Record<Role, string>>>> = {
  single: { open: '\u2018', close: '\u2019', apostrophe: '\u2019' },
  double: { open: '\u201c', close: '\u201d', apostrophe: '\u201d' },
};
const STRAIGHT: Readonly<Record<Family, string>> = { single: "'", double: '"' };

/** What the file writes for each family and role, learned from matched pairs. */
export class QuoteStyle {
  readonly #learned = new Map<string, string>();
  readonly #forms = new Map<Family, Set<'curly' | 'straight'>>();
  #differs = false;

  /** True once some quote of the matched text differed from old_string's (the match needed the tolerance). */
  get differs(): boolean {
    return this.#differs;
  }

  /**
   * Learns from `fileText` and `oldText`, two strings that are equal character for character once
   * punctuation is plain (the matched text and old_string, or one line of each, trimmed alike).
   */
  learn(fileText: string, oldText: string): void {
    const length = Math.min(fileText.length, oldText.length);
    for (let index = 0; index < length; index += 1) {
      const written = fileText[index]!;
      const family = FAMILY[written];
      if (family === undefined || FAMILY[oldText[index]!] !== family) continue;
      if (written !== oldText[index]) this.#differs = true;
      this.#learned.set(`${family}:${roleAt(fileText, index)}`, written);
      let forms = this.#forms.get(family);
      if (forms === undefined) this.#forms.set(family, (forms = new Set()));
      forms.add(written === STRAIGHT[family] ? 'straight' : 'curly');
    }
  }

  /**
   * `newString` with each quote in the file's form for its family and role: what the matched text
   * used in that role, else the one form the file used for that family, else as the model wrote it.
   */
  apply(newString: string): string {
    if (!this.#differs) return newString;
    let out = '';
    for (let index = 0; index < newString.length; index += 1) {
      const character = newString[index]!;
      const family = FAMILY[character];
      if (family === undefined) {
        out += character;
        continue;
      }
      const role = roleAt(newString, index);
      const forms = this.#forms.get(family);
      const only = forms?.size === 1 ? [...forms][0] : undefined;
      out += this.#learned.get(`${family}:${role}`) ?? (only === 'curly' ? CURLY[family][role] : only === 'straight' ? STRAIGHT[family] : character);
    }
    return out;
  }
}

/** Between two letters or digits: an apostrophe; at the start or after space or an opening bracket: opening; else closing. */
function roleAt(text: string, index: number): Role {
  const before = text[index - 1];
  const after = text[index + 1];
  const word = (character: string | undefined) => character !== undefined && /[\p{L}\p{N}]/u.test(character);
  if (word(before) && word(after)) return 'apostrophe';
  if (before === undefined || /[\s([{\u2014\u2013-]/.test(before)) return 'open';
  return 'close';
}
