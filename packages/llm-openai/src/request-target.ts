import { redactUrl } from '@weir/core';
import { OpenAIError } from './openai-error.js';

/** Where the requests go, resolved once from the base URL. */
export interface RequestTarget {
  /** The endpoint's URL, query string kept (Azure's `api-version` lives there). */
  readonly href: string;
  /** The same URL without query string or credentials: safe for messages and logs. */
  readonly display: string;
  /** True when the base URL's path has a version segment such as `/v1` or `/v1beta`. */
  readonly hasVersionSegment: boolean;
  /** Origin plus path of the base URL, for hints. */
  readonly base: string;
}

/** The endpoints a pasted base URL may already end with. */
const ENDPOINTS = ['/chat/completions', '/responses'];

/**
 * Resolves `baseURL` to the URL of `endpoint` (`/chat/completions` by default, or `/responses`):
 * `<base><endpoint>`, with a pasted endpoint at the end of `baseURL` taken off first (a common
 * paste). Throws `OpenAIError('INVALID_CONFIG')` for a URL that does not parse or is not http(s).
 */
export function requestTarget(baseURL: string, endpoint = '/chat/completions'): RequestTarget {
  let url: URL;
  try {
    url = new URL(baseURL.trim());
  } catch {
    throw new OpenAIError('INVALID_CONFIG', `The base URL "${redactUrl(baseURL)}" is not a URL. Set OPENAI_BASE_URL (or baseURL) to e.g. https://api.openai.com/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OpenAIError('INVALID_CONFIG', `The base URL must be http or https, got "${url.protocol}". Set OPENAI_BASE_URL (or baseURL) to e.g. https://api.openai.com/v1.`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  const pasted = ENDPOINTS.find((known) => path.endsWith(known));
  const basePath = pasted === undefined ? path : path.slice(0, -pasted.length);
  url.pathname = `${basePath}${endpoint}`;
  const display = `${url.origin}${url.pathname}`;
  return {
    href: url.href,
    display,
    hasVersionSegment: /\/v\d+[a-z0-9]*(\/|$)/i.test(basePath),
    base: `${url.origin}${basePath}`,
  };
}
