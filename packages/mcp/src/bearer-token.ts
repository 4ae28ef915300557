import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { open } from 'node:fs/promises';

/** The shortest token `serveHarness` takes from its caller: guessing one must stay out of reach. */
export const MIN_TOKEN_LENGTH = 32;

/** A fresh token: 32 random bytes, base64url (43 characters). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Checks a request's `Authorization` header against the token, in constant time: both sides are
 * hashed first, so neither the token's length nor the place of the first wrong character shows in
 * how long the answer takes. Never throws.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(sent), digest(token));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Writes the token to `path` for the client, readable by this user only (mode 0600). The file must
 * not exist: an existing one may be another user's link or file, and is never written through.
 */
export async function writeTokenFile(path: string, token: string): Promise<void> {
  const file = await open(path, 'wx', 0o600);
  try {
    await file.writeFile(`${token}\n`);
  } finally {
    await file.close();
  }
}
