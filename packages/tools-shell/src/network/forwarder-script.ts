/**
 * The forwarder that runs inside the sandbox, with the harness's own node binary: it listens on
 * the sandbox's loopback (the only device of its network namespace) and relays each connection,
 * byte for byte, to the plugin's proxy through the Unix socket bound in. It decides nothing: the
 * proxy on the other side does. It prints `ready` once it listens, so the command starts only
 * when the proxy variables lead somewhere. Kept as text, written to the plugin's scratch
 * directory, so it ships the same from source and from a bundle.
 */
export const FORWARDER_SCRIPT = `import { connect, createServer } from 'node:net';
const [socketPath, port] = process.argv.slice(2);
// Big stream buffers: fewer pauses (and so fewer wake-ups) per megabyte than the 16 KiB default.
const highWaterMark = 1024 * 1024;
const server = createServer({ allowHalfOpen: true, highWaterMark }, (client) => {
  client.setNoDelay(true);
  const upstream = connect({ path: socketPath, allowHalfOpen: true, readableHighWaterMark: highWaterMark, writableHighWaterMark: highWaterMark });
  const cut = () => { client.destroy(); upstream.destroy(); };
  client.on('error', cut);
  upstream.on('error', cut);
  client.pipe(upstream);
  upstream.pipe(client);
});
server.on('error', (error) => { process.stderr.write('weir sandbox: the network forwarder failed: ' + error.message + '\\n'); process.exit(1); });
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\\n'));
`;
