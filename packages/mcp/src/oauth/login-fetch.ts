import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientSdk } from '../load-sdk.js';
import { McpServerError } from '../mcp-server-error.js';
import { ClientCredentialsProvider } from './client-credentials-provider.js';
import type { ResolvedOAuth } from './oauth-options.js';
import { listenForRedirect, type RedirectListener } from './redirect-listener.js';
import type { WeirOAuthProvider } from './weir-oauth-provider.js';

/** What a server's refusal asks for: a token (401), or a token with more scope (403 `insufficient_scope`). */
interface Challenge {
  /**
   * What makes two refusals the same, so that one coming back right after a login for it is not
   * logged in for twice: any 401 (the token just issued is refused, whatever the challenge says
   * now), or a 403 with the same `WWW-Authenticate` (the same scope asked for).
   */
  readonly key: string;
  /** A 403: the token is good but its scope is too small. */
  readonly moreScope: boolean;
  readonly resourceMetadataUrl: URL | undefined;
  readonly scope: string | undefined;
}

/** One login under way: `first` settles once it is known whether a person is needed; `done` once there is a token. */
interface Login {
  readonly first: Promise<'authorized' | 'person'>;
  readonly done: Promise<void>;
}

/** Thrown by a request sent while connecting, when the person must log in: the connect waits for `login` outside its timeout and starts again. */
export class LoginPendingError extends Error {
  /** Resolves once the login has a token; rejects when it failed (the person never came back, the exchange was refused). */
  readonly login: Promise<void>;

  constructor(login: Promise<void>) {
    super('the server asks for a login; the person was sent to log in');
    this.name = 'LoginPendingError';
    this.login = login;
  }
}

/** At most this many logins for one request (a token, then more scope); the same refusal after a login for it ends the tries sooner. */
const LOGINS_PER_REQUEST = 2;

/**
 * The `fetch` of an OAuth server's transport: it sends the stored access token, and answers a
 * refusal, on any request of the session (initialize, a listing, a tool call, the event stream),
 * by logging in and sending the request again. A 401 asks for a token: `auth()` refreshes it, or
 * sends the person to log in; a 403 with `insufficient_scope` asks for more scope, and the login
 * asks for the scope the server names (step-up). One login at a time: requests refused meanwhile
 * wait for it. A refusal that comes back unchanged right after a login for it is handed to the
 * transport as it is (an error for the caller), so a server that never accepts cannot loop weir
 * through logins.
 */
export class LoginFetch {
  /**
   * False while connecting: a request that needs the person fails at once with `LoginPendingError`
   * (the login goes on), so the person's time is not charged to the connect's timeout. True after:
   * the request waits for the login and is sent again.
   */
  waitForLogins = false;
  readonly fetch: FetchLike = (input, init) => this.#send(input, init);
  readonly #provider: WeirOAuthProvider | ClientCredentialsProvider;
  readonly #oauth: ResolvedOAuth;
  readonly #serverUrl: URL;
  readonly #sdk: Pick<ClientSdk, 'auth' | 'extractWWWAuthenticateParams'>;
  readonly #redirectPort: () => number | undefined;
  readonly #name: string;
  readonly #describe: string;
  #login: Login | undefined;
  #listener: RedirectListener | undefined;
  #answered: string | undefined;
  #closed = false;

  /** `redirectPort`: the port of the stored registration's redirect, if any; `name` and `describe` name the server in errors. */
  constructor(
    server: { readonly name: string; readonly describe: string; readonly url: URL },
    provider: WeirOAuthProvider | ClientCredentialsProvider,
    oauth: ResolvedOAuth,
    sdk: Pick<ClientSdk, 'auth' | 'extractWWWAuthenticateParams'>,
    redirectPort: () => number | undefined,
  ) {
    this.#name = server.name;
    this.#describe = server.describe;
    this.#serverUrl = server.url;
    this.#provider = provider;
    this.#oauth = oauth;
    this.#sdk = sdk;
    this.#redirectPort = redirectPort;
  }

  /** Ends a login under way (its listener closed) and refuses new ones: the session is gone. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#listener?.close();
  }

  async #send(input: string | URL, init: RequestInit | undefined): Promise<Response> {
    for (let logins = 0; ; logins += 1) {
      const headers = new Headers(init?.headers);
      const token = this.#provider.tokens()?.access_token;
      if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
      const response = await fetch(input, { ...init, headers });
      const challenge = this.#challengeOf(response);
      if (challenge === undefined) {
        if (response.ok) this.#answered = undefined;
        return response;
      }
      if (logins === LOGINS_PER_REQUEST || challenge.key === this.#answered || this.#closed) return response;
      await response.body?.cancel();
      try {
        await this.#authorize(challenge);
      } catch (error) {
        // The connect starts again after this login: the same refusal then is not logged in for twice.
        if (error instanceof LoginPendingError) this.#answered = challenge.key;
        throw error;
      }
      this.#answered = challenge.key;
    }
  }

  #challengeOf(response: Response): Challenge | undefined {
    if (response.status !== 401 && response.status !== 403) return undefined;
    const { resourceMetadataUrl, scope, error } = this.#sdk.extractWWWAuthenticateParams(response);
    if (response.status === 403 && error !== 'insufficient_scope') return undefined;
    const key = response.status === 401 ? '401' : `403 ${response.headers.get('www-authenticate') ?? ''}`;
    return { key, moreScope: response.status === 403, resourceMetadataUrl, scope };
  }

  async #authorize(challenge: Challenge): Promise<void> {
    let login = this.#login;
    if (login === undefined) {
      const started = this.#logIn(challenge);
      login = started;
      this.#login = started;
      const clear = () => {
        if (this.#login === started) this.#login = undefined;
      };
      started.done.then(clear, clear);
    }
    try {
      if (this.waitForLogins) return await login.done;
      if ((await login.first) === 'person') throw new LoginPendingError(login.done);
    } catch (error) {
      if (error instanceof LoginPendingError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new McpServerError('MCP_AUTH_FAILED', this.#name, `Could not log in to ${this.#describe}: ${reason}.`, '', { cause: error });
    }
  }

  #logIn(challenge: Challenge): Login {
    const provider = this.#provider;
    if (provider instanceof ClientCredentialsProvider) return this.#askForToken(provider, challenge);
    let personAsked = () => {};
    const asked = new Promise<'person'>((resolve) => {
      personAsked = () => resolve('person');
    });
    const options = { serverUrl: this.#serverUrl, resourceMetadataUrl: challenge.resourceMetadataUrl, scope: challenge.scope };
    const done = (async () => {
      const listener = await listenForRedirect(this.#oauth.redirectPort ?? this.#redirectPort());
      this.#listener = listener;
      try {
        provider.useRedirect(listener);
        provider.takeCode();
        provider.mayRefresh = !challenge.moreScope;
        if ((await this.#sdk.auth(provider, options)) === 'AUTHORIZED') return;
        const code = provider.takeCode();
        if (code === undefined) throw new Error('the person was not sent to log in');
        personAsked();
        if ((await this.#sdk.auth(provider, { ...options, authorizationCode: await code })) !== 'AUTHORIZED') throw new Error('the authorization server issued no token');
      } finally {
        provider.mayRefresh = true;
        if (this.#listener === listener) this.#listener = undefined;
        await listener.close();
      }
    })();
    done.catch(() => undefined);
    return { first: Promise.race([asked, done.then(() => 'authorized' as const)]), done };
  }

  /**
   * The client credentials grant: no person, no listener. `auth()` sees a provider with no redirect
   * and asks the token endpoint for a token straight away (a new one each time: it has no refresh
   * token to use). A refusal names the client, never its secret or key.
   */
  #askForToken(provider: ClientCredentialsProvider, challenge: Challenge): Login {
    const done = (async () => {
      provider.askFor(challenge.scope);
      let result: string;
      try {
        result = await this.#sdk.auth(provider, { serverUrl: this.#serverUrl, resourceMetadataUrl: challenge.resourceMetadataUrl, scope: challenge.scope });
      } catch (error) {
        const refusal = oauthErrorOf(error);
        // Anything else (no metadata, a resource naming another server, the network) is told as it is.
        if (refusal === undefined) throw error;
        throw new Error(`the authorization server refused a token to client "${provider.clientId}" (${refusal})`, { cause: error });
      }
      if (result !== 'AUTHORIZED') throw new Error('the authorization server issued no token');
    })();
    done.catch(() => undefined);
    return { first: done.then(() => 'authorized' as const), done };
  }
}

/** An OAuth error response (the SDK's `OAuthError`, its code apart from its message) as `code: description`; `undefined` for any other error. */
function oauthErrorOf(error: unknown): string | undefined {
  const code = (error as { errorCode?: unknown } | null)?.errorCode;
  if (typeof code !== 'string') return undefined;
  const message = error instanceof Error ? error.message : '';
  return message === '' ? code : `${code}: ${message}`;
}
