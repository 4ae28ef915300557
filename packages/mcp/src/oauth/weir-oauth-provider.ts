import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { ResolvedOAuth } from './oauth-options.js';
import type { RedirectListener } from './redirect-listener.js';
import type { TokenStore } from './token-store.js';

/**
 * What the SDK's `auth()` asks of a client: weir's registration metadata, the login kept in the
 * token store, and the person shown the authorization URL. The SDK does the protocol: metadata
 * discovery, dynamic registration, PKCE, the code exchange and refresh. Each login listens for the
 * browser's return on a loopback listener of its own, given with `useRedirect` before `auth()` runs.
 */
export class WeirOAuthProvider implements OAuthClientProvider {
  readonly #store: TokenStore;
  readonly #options: ResolvedOAuth;
  #listener: RedirectListener | undefined;
  #redirectUrl: string;
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #state: string | undefined;
  #code: Promise<string> | undefined;
  /**
   * False during a login for more scope: a refresh cannot widen a grant (RFC 6749 section 6), so
   * `auth()` must not be shown the refresh token, and sends the person to log in instead.
   */
  mayRefresh = true;

  constructor(store: TokenStore, options: ResolvedOAuth) {
    this.#store = store;
    this.#options = options;
    // Never empty: the SDK takes a provider without a redirect URL for a non-interactive client.
    this.#redirectUrl = store.read().redirectUri ?? 'http://127.0.0.1/callback';
  }

  /** The listener the next login's browser comes back to. A registration made for another redirect (another port) is of no use: it is dropped, and `auth()` registers again. */
  useRedirect(listener: RedirectListener): void {
    this.#listener = listener;
    this.#redirectUrl = listener.url;
    if (this.#options.clientId !== undefined) return;
    const stored = this.#store.read();
    if (stored.client !== undefined && stored.redirectUri !== listener.url) this.#store.update({ client: undefined, redirectUri: undefined });
  }

  get redirectUrl(): string {
    return this.#redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const metadata: OAuthClientMetadata = {
      client_name: 'weir',
      redirect_uris: [this.#redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
    return this.#options.scope === undefined ? metadata : { ...metadata, scope: this.#options.scope };
  }

  state(): string {
    this.#state = randomBytes(16).toString('base64url');
    return this.#state;
  }

  /** Where the authorization server supports client ID metadata documents, the SDK uses this URL as the client ID instead of registering. */
  get clientMetadataUrl(): string | undefined {
    return this.#options.clientMetadataUrl;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.#options;
    if (clientId !== undefined) return clientSecret === undefined ? { client_id: clientId } : { client_id: clientId, client_secret: clientSecret };
    return this.#store.read().client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    // A client given in the options is not stored: its secret stays out of the token file.
    if (this.#options.clientId !== undefined) return;
    this.#store.update({ client, redirectUri: this.#redirectUrl });
  }

  tokens(): OAuthTokens | undefined {
    const tokens = this.#store.read().tokens;
    if (tokens === undefined || this.mayRefresh) return tokens;
    const { refresh_token: _kept, ...rest } = tokens;
    return rest;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#store.update({ tokens });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.#listener === undefined) throw new Error('no loopback listener is waiting for the browser');
    // Waiting before the URL is shown: a browser quicker than this process still finds the listener ready.
    const login = this.#listener.code(this.#state ?? url.searchParams.get('state') ?? '', this.#options.loginTimeoutMs);
    login.catch(() => undefined);
    this.#code = login;
    await this.#options.authorize(url);
  }

  /** The code the browser brings back, once `auth()` sent the person to log in (else `undefined`); taken once. */
  takeCode(): Promise<string> | undefined {
    const code = this.#code;
    this.#code = undefined;
    return code;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error('no login is under way (no PKCE code verifier)');
    return this.#verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.#store.update({ client: undefined, redirectUri: undefined });
    if (scope === 'all' || scope === 'tokens') this.#store.update({ tokens: undefined });
    if (scope === 'all' || scope === 'verifier') this.#verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
  }
}
