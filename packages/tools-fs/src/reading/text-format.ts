import { FsError } from '../fs-error.js';

/** How a text file's bytes become text: UTF-8, or Latin-1 (ISO-8859-1) when the bytes are not UTF-8. */
export type TextEncoding = 'utf-8' | 'latin1';

/** The form of a text file, kept when it is written back. */
export interface TextFormat {
  readonly encoding: TextEncoding;
  /** A UTF-8 byte-order mark opened the file. */
  readonly bom: boolean;
  /** The line ending most lines use (`\r\n` when CRLF lines outnumber bare LF ones). */
  readonly eol: '\n' | '\r\n';
}

/** A text file decoded: its text (without the byte-order mark, line endings as they are) and its form. */
export interface DecodedText {
  readonly text: string;
  readonly format: TextFormat;
}

const BOM = '\ufeff';
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The format of a file that does not exist yet: UTF-8, no byte-order mark, LF. */
export const NEW_FILE_FORMAT: TextFormat = Object.freeze({ encoding: 'utf-8', bom: false, eol: '\n' });

/**
 * Decodes a file's bytes. A NUL byte means binary (`FsError('BINARY_FILE')`); valid UTF-8 is
 * UTF-8; anything else is taken as Latin-1, where every byte is one character, so writing the
 * text back in Latin-1 gives the same bytes.
 */
export function decodeText(bytes: Uint8Array, display: string): DecodedText {
  if (bytes.includes(0)) throw new FsError('BINARY_FILE', `${display} contains NUL bytes: it is binary, not text, so it is not shown or edited.`);
  let text: string;
  let encoding: TextEncoding = 'utf-8';
  try {
    text = utf8.decode(bytes);
  } catch {
    // TextDecoder's only failure is malformed input: not UTF-8, so one byte per character.
    text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    encoding = 'latin1';
  }
  const bom = encoding === 'utf-8' && text.startsWith(BOM);
  if (bom) text = text.slice(1);
  return { text, format: { encoding, bom, eol: dominantEol(text) } };
}

/** `\r\n` when more lines end in CRLF than in a bare LF. */
export function dominantEol(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    if (index > 0 && text.charCodeAt(index - 1) === 13) crlf += 1;
    else lf += 1;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/**
 * Encodes text in a file's format: the byte-order mark put back, Latin-1 kept (a character that
 * Latin-1 cannot hold is refused with `FsError('UNENCODABLE')`, naming it). Line endings are the
 * caller's: the text is written as given.
 */
export function encodeText(text: string, format: TextFormat, display: string): Buffer {
  if (format.encoding === 'utf-8') return Buffer.from(format.bom ? BOM + text : text, 'utf8');
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code > 0xff) {
      const character = String.fromCodePoint(text.codePointAt(index) ?? code);
      throw new FsError(
        'UNENCODABLE',
        `${display} is Latin-1 (ISO-8859-1) text and ${JSON.stringify(character)} (U+${(text.codePointAt(index) ?? code).toString(16).toUpperCase().padStart(4, '0')}) cannot be written in it; nothing was written. Use characters of Latin-1 only, or convert the file to UTF-8 first with write_file on a new file.`,
      );
    }
  }
  return Buffer.from(text, 'latin1');
}

/** Text with every line ending (CRLF or LF) turned into `eol`. */
export function withEol(text: string, eol: '\n' | '\r\n'): string {
  const lf = text.replace(/\r\n/g, '\n');
  return eol === '\n' ? lf : lf.replace(/\n/g, '\r\n');
}

/** A short description of a non-default format, for notes to the model; `undefined` for UTF-8 with LF. */
export function describeFormat(format: TextFormat): string | undefined {
  const parts: string[] = [];
  if (format.encoding === 'latin1') parts.push('Latin-1 (ISO-8859-1) text');
  if (format.bom) parts.push('a UTF-8 byte-order mark');
  if (format.eol === '\r\n') parts.push('CRLF line endings');
  return parts.length === 0 ? undefined : parts.join(', ');
}
