import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What is kept of one server's login: the client registration and the tokens. */
export interface StoredLogin {
  readonly client?: OAuthClientInformationMixed;
  readonly tokens?: OAuthTokens;
  /** The redirect URI the registration was made with: the next login listens on its port. */
  readonly redirectUri?: string;
  /** When the access token expires (milliseconds since the epoch), where it said (`expires_in`): kept by the client credentials grant, which asks again then. */
  readonly expiresAt?: number;
}

/**
 * One server's login on disk: a JSON file of mode 0600 in a folder of mode 0700, replaced whole
 * (written beside, then renamed) so a crash never leaves half a token. Its content is never logged.
 */
export class TokenStore {
  readonly file: string;
  #login: StoredLogin | undefined;

  constructor(file: string) {
    this.file = file;
  }

  /** The stored login; `{}` when there is none or the file is unreadable (a new login replaces it). */
  read(): StoredLogin {
    if (this.#login === undefined) {
      try {
        const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
        this.#login = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as StoredLogin) : {};
      } catch {
        this.#login = {};
      }
    }
    return this.#login;
  }

  /** Replaces fields of the login and writes it. Throws when the file cannot be written (the login would be lost). */
  update(change: Partial<Record<keyof StoredLogin, unknown>>): void {
    const next: Record<string, unknown> = { ...this.read() };
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    this.#login = next as StoredLogin;
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(next)}\n`, { mode: 0o600 });
    // The mode given to writeFileSync is masked by the umask: set it exactly.
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.file);
  }
}
