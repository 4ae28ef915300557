/** Why a request to the loopback server is refused, or `undefined` to let it through. */
export type LoopbackRefusal = { readonly status: 403 | 421; readonly message: string } | undefined;

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The DNS-rebinding check of a server that listens on loopback: a web page on another site that
 * got its name pointed at 127.0.0.1 still sends its own `Host` (and `Origin`). So `Host` must be a
 * loopback name with our port, and `Origin`, when there is one, a loopback origin with our port or
 * one the caller allowed. Requests without `Origin` come from programs, not browsers, and pass.
 */
export function checkLoopbackRequest(
  headers: { readonly host?: string | undefined; readonly origin?: string | undefined },
  port: number,
  allowedOrigins: readonly string[] = [],
): LoopbackRefusal {
  const host = headers.host?.toLowerCase();
  const hosts = LOOPBACK_NAMES.map((name) => `${name}:${port}`);
  if (host === undefined || !hosts.includes(host)) {
    return { status: 421, message: `Host ${JSON.stringify(headers.host ?? '')} is not this server (${hosts.join(', ')}): refused against DNS rebinding.` };
  }
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  const origins = [...hosts.map((name) => `http://${name}`), ...allowedOrigins];
  if (!origins.includes(origin.toLowerCase()) && !allowedOrigins.includes(origin)) {
    return { status: 403, message: `Origin ${JSON.stringify(origin)} is not allowed: refused against DNS rebinding.` };
  }
  return undefined;
}
