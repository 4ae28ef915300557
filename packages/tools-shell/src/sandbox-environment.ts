/** The home directory inside the sandbox: a private tmpfs, empty at each command. */
export const SANDBOX_HOME = '/home/weir';

/** The system directories searched for programs inside the sandbox: never `.` nor the workspace. */
export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The whole environment of a sandboxed command: a fixed allow-list, then the caller's `env`
 * (which may override it). Nothing is inherited from the harness, so API keys, tokens,
 * `SSH_AUTH_SOCK`, `LD_*` or `NODE_OPTIONS` of the harness never reach a command.
 */
export function sandboxEnvironment(extra: Readonly<Record<string, string>>): Record<string, string> {
  return {
    PATH: SANDBOX_PATH,
    HOME: SANDBOX_HOME,
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    ...extra,
  };
}
