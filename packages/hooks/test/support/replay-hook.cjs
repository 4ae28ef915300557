// A hook of our own that behaves as a recorded real one did: it reads the stdin weir sends,
// checks it against the stdin the case recorded (the fields a hook reads), and answers what the
// real script answered for it: the same stdout, stderr and exit code. A payload that does not match
// is a mistake of weir's mapping: it says so and exits 3, which fails closed and fails the test.
'use strict';
const { readFileSync } = require('node:fs');

const theCase = JSON.parse(readFileSync(process.env.HOOKCASE_FILE, 'utf8'));
const input = theCase.inputs[Number(process.env.HOOKCASE_INPUT)];
const root = process.env.HOOKCASE_ROOT;
const local = (value) => JSON.parse(JSON.stringify(value).split(theCase.fixtureRoot).join(root));
const recorded = local(input.stdin);
const sent = JSON.parse(readFileSync(0, 'utf8'));

const problems = [];
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
for (const key of ['hook_event_name', 'cwd', 'prompt', 'source', 'stop_hook_active', 'message', 'notification_type', 'file_path', 'load_reason', 'error']) {
  if (key in recorded && !same(sent[key], recorded[key])) problems.push(`${key}: sent ${JSON.stringify(sent[key])}, recorded ${JSON.stringify(recorded[key])}`);
}
if ('tool_name' in recorded) {
  // weir's edit_file is one replacement: a MultiEdit hook is shown it as an Edit.
  const names = recorded.tool_name === 'MultiEdit' ? ['MultiEdit', 'Edit'] : [recorded.tool_name];
  if (!names.includes(sent.tool_name)) problems.push(`tool_name: sent ${JSON.stringify(sent.tool_name)}, recorded ${JSON.stringify(recorded.tool_name)}`);
  const must = new Set(['command', 'file_path', 'content', 'old_string', 'new_string', 'pattern', 'url']);
  for (const [key, value] of Object.entries(recorded.tool_input ?? {})) {
    if (!(key in (sent.tool_input ?? {})) && !must.has(key)) continue; // a field weir's tool has no notion of
    if (!same(sent.tool_input?.[key], value)) problems.push(`tool_input.${key}: sent ${JSON.stringify(sent.tool_input?.[key])}, recorded ${JSON.stringify(value)}`);
  }
}
if (typeof sent.session_id !== 'string' || typeof sent.transcript_path !== 'string' || typeof sent.permission_mode !== 'string') problems.push('session_id, transcript_path and permission_mode must be strings');
if (problems.length > 0) {
  process.stderr.write(`replay: weir's stdin differs from the recorded one: ${problems.join('; ')}\n`);
  process.exit(3);
}
process.stdout.write(input.observed.stdout);
process.stderr.write(input.observed.stderr);
process.exitCode = input.expected.exitCode;
