/** Where the network pieces appear inside the sandbox (a directory on its own read-only root). */
export const SANDBOX_NET_DIR = '/run/weir';
export const SANDBOX_PROXY_SOCKET = `${SANDBOX_NET_DIR}/proxy.sock`;
export const SANDBOX_FORWARDER = `${SANDBOX_NET_DIR}/forwarder.mjs`;
/** The forwarder's port on the sandbox's own loopback (a namespace of its own: no clash with the host). */
export const FORWARDER_PORT = 3128;

const PROXY_URL = `http://127.0.0.1:${FORWARDER_PORT}`;

/**
 * The proxy variables every common client reads (curl, git, pip, npm, Go, Python, undici's
 * `EnvHttpProxyAgent`, Node 24's `NODE_USE_ENV_PROXY`), in both cases. Loopback stays direct:
 * a command may talk to a server it started itself.
 */
export function proxyEnvironment(): Record<string, string> {
  const env: Record<string, string> = { NODE_USE_ENV_PROXY: '1' };
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) {
    env[name] = PROXY_URL;
    env[name.toLowerCase()] = PROXY_URL;
  }
  env.NO_PROXY = env.no_proxy = 'localhost,127.0.0.1,::1';
  return env;
}

/**
 * The bash that runs first in the sandbox when the network is filtered: it starts the forwarder,
 * waits for its `ready` (10 s at most), then `exec`s the command (its `$1`) in a fresh bash, so
 * the command's exit code and signals are its own. The forwarder lives until the sandbox's PID
 * namespace ends with the command.
 */
export function networkPrelude(node: string): string {
  return [
    `exec 9< <(exec ${node} ${SANDBOX_FORWARDER} ${SANDBOX_PROXY_SOCKET} ${FORWARDER_PORT} 2>/dev/null </dev/null)`,
    `if ! read -r -t 10 weir_ready <&9 || [ "$weir_ready" != ready ]; then echo 'weir sandbox: the network forwarder did not start' >&2; exit 125; fi`,
    'exec 9<&-',
    'unset weir_ready',
    'exec /bin/bash --noprofile --norc -c "$1"',
  ].join('\n');
}
