import type { AddClientAuthentication, OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { ClientSdk } from '../load-sdk.js';
import type { ResolvedOAuth } from './oauth-options.js';
import type { TokenStore } from './token-store.js';

/** A token is taken as expired this long before its `expires_in` says (a tenth of its life at most): the request it goes with must still find it good. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * What the SDK's `auth()` asks of a client with no person (the client credentials grant, RFC 6749
 * section 4.4). With no `redirectUrl`, `auth()` takes the non-interactive path: discovery, then
 * the token request this provider prepares (`grant_type=client_credentials`), authenticated by the
 * SDK: with the secret as the authorization server's metadata asks (HTTP Basic, or in the form),
 * or with a `private_key_jwt` assertion the SDK signs (`createPrivateKeyJwtAuth`). Nothing is
 * registered. The token is kept in the token store with its expiry; the secret and the key are
 * not (they stay in the resolved options).
 */
export class ClientCredentialsProvider implements OAuthClientProvider {
  readonly #store: TokenStore;
  readonly #options: ResolvedOAuth & { readonly clientId: string };
  readonly #scope: string | undefined;
  #askedScope: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  readonly addClientAuthentication: AddClientAuthentication | undefined;

  constructor(store: TokenStore, options: ResolvedOAuth, sdk: Pick<ClientSdk, 'createPrivateKeyJwtAuth'>) {
    const { clientId, clientKey } = options;
    if (clientId === undefined) throw new Error('the client credentials grant needs a client ID');
    this.#store = store;
    this.#options = { ...options, clientId };
    this.#scope = options.scope;
    // A key: the SDK signs a fresh assertion (iss = sub = the client ID, aud = the authorization server's issuer) for each token request.
    this.addClientAuthentication =
      clientKey === undefined ? undefined : sdk.createPrivateKeyJwtAuth({ issuer: clientId, subject: clientId, privateKey: clientKey.jwk(), alg: clientKey.algorithm });
  }

  /** The client this provider authenticates as (its ID only), for errors. */
  get clientId(): string {
    return this.#options.clientId;
  }

  /**
   * The scope the next token requests ask for: the last one a refusal named (a 403 asking for more
   * scope, a 401 naming one), else `oauth.scope`, else none. A refusal naming none (an expired
   * token) keeps the last: the new token must be good for what the old one was.
   */
  askFor(scope: string | undefined): void {
    if (scope !== undefined && scope !== '') this.#askedScope = scope;
  }

  /** None: this is what tells `auth()` there is no person to send anywhere. */
  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.#askedScope ?? this.#scope;
    return {
      client_name: 'weir',
      redirect_uris: [],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: this.addClientAuthentication === undefined ? 'client_secret_basic' : 'private_key_jwt',
      ...(scope === undefined ? {} : { scope }),
    };
  }

  clientInformation(): OAuthClientInformationMixed {
    const { clientId, clientSecret, authorizationServer } = this.#options;
    // The SDK's own binding too (its `issuer` stamp): it presents these credentials to that server only.
    const issuer = authorizationServer === undefined ? {} : { issuer: authorizationServer.href };
    return clientSecret === undefined ? { client_id: clientId, ...issuer } : { client_id: clientId, client_secret: clientSecret, ...issuer };
  }

  /** The stored token, unless it expired (then none is sent: the server's 401 has a new one asked for). */
  tokens(): OAuthTokens | undefined {
    const { tokens, expiresAt } = this.#store.read();
    if (tokens === undefined) return undefined;
    return expiresAt !== undefined && Date.now() >= expiresAt ? undefined : tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    const life = typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? tokens.expires_in * 1000 : undefined;
    this.#store.update({ tokens, expiresAt: life === undefined ? undefined : Date.now() + life - Math.min(EXPIRY_MARGIN_MS, life / 10) });
  }

  prepareTokenRequest(scope: string | undefined): URLSearchParams {
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope !== undefined && scope !== '') params.set('scope', scope);
    return params;
  }

  redirectToAuthorization(): never {
    throw new Error('the client credentials grant sends no one to log in');
  }

  saveCodeVerifier(): void {
    // No authorization code, no PKCE.
  }

  codeVerifier(): never {
    throw new Error('the client credentials grant has no PKCE code verifier');
  }

  /**
   * Called by `auth()` once discovery found the authorization server, before any token request:
   * one other than `oauth.authorizationServer` ends the login here, so the credentials are not sent.
   */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    const expected = this.#options.authorizationServer;
    if (expected !== undefined && !sameServer(expected, state.authorizationServerUrl)) {
      throw new Error(`the server names the authorization server ${state.authorizationServerUrl}, not oauth.authorizationServer ${expected.href}; the client's credentials were not sent to it`);
    }
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    // The client is the configured one: there is no stored registration to drop.
    if (scope === 'all' || scope === 'tokens') this.#store.update({ tokens: undefined, expiresAt: undefined });
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
  }
}

/** Two issuer URLs name the same server when they are equal once parsed, a trailing "/" aside. */
function sameServer(expected: URL, found: string): boolean {
  let other: string;
  try {
    other = new URL(found).href;
  } catch {
    return false;
  }
  const trim = (href: string) => (href.endsWith('/') ? href.slice(0, -1) : href);
  return trim(expected.href) === trim(other);
}
