// Control, bidirectional-override and invisible characters: shown as escapes so a listed name
// cannot forge a line or look like another name.
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** `name` with every control or invisible character written as `\u{...}`. Pure. */
export function printableName(name: string): string {
  return name.replace(HIDDEN, (character) => `\\u{${character.codePointAt(0)!.toString(16).toUpperCase()}}`);
}
