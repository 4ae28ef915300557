import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { ResolvedOAuth } from './oauth-options.js';
import type { RedirectListener } from './redirect-listener.js';
import type { TokenStore } from './token-store.js';

/**
 * What the SDK's `auth()` asks of a client: weir's registration metadata, the login kept in the
 * token store, and the person shown the authorization URL. The SDK does the protocol: metadata
 * discovery, dynamic registration, PKCE, the code exchange and refresh.
 */
export class WeirOAuthProvider implements OAuthClientProvider {
  readonly #store: TokenStore;
  readonly #options: ResolvedOAuth;
  readonly #listener: RedirectListener;
  readonly #redirectUrl: string;
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #state: string | undefined;
  /** The code the browser brings back, once the SDK sent the person to log in; the connect that failed waits for it. */
  login: Promise<string> | undefined;

  constructor(store: TokenStore, options: ResolvedOAuth, listener: RedirectListener) {
    this.#store = store;
    this.#options = options;
    this.#listener = listener;
    const redirectUrl = listener.url;
    this.#redirectUrl = redirectUrl;
    // A registration made for another redirect (another port) is of no use: register again.
    const stored = store.read();
    if (stored.client !== undefined && stored.redirectUri !== redirectUrl) store.update({ client: undefined, redirectUri: undefined });
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

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#store.read().client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.#store.update({ client, redirectUri: this.#redirectUrl });
  }

  tokens(): OAuthTokens | undefined {
    return this.#store.read().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#store.update({ tokens });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    // Waiting before the URL is shown: a browser quicker than this process still finds the listener ready.
    const login = this.#listener.code(this.#state ?? url.searchParams.get('state') ?? '', this.#options.loginTimeoutMs);
    login.catch(() => undefined);
    this.login = login;
    await this.#options.authorize(url);
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
