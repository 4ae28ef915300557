/** The image formats read_file returns as images: what every vision model takes. */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** Bytes enough to tell the formats apart. */
export const IMAGE_SIGNATURE_BYTES = 12;

/**
 * The image format of a file from its first bytes (its signature), or `undefined`. The name is
 * never consulted: `notes.png` holding text is text, and a PNG named `data.bin` is an image.
 */
export function imageTypeOf(head: Uint8Array): ImageMediaType | undefined {
  const at = (offset: number, ...bytes: number[]) => bytes.every((byte, index) => head[offset + index] === byte);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61) return 'image/gif';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return undefined;
}
