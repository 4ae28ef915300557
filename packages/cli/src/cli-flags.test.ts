import { describe, expect, it } from 'vitest';
import { parseCliFlags } from './cli-flags.js';
import { UsageError } from './usage-error.js';

describe('parseCliFlags', () => {
  it.each(['workspace', 'config', 'resume', 'model', 'base-url', 'mode'])('an empty --%s is a usage error naming the flag', (flag) => {
    for (const args of [['run', `--${flag}=`, 'hello'], ['run', `--${flag}`, '', 'hello'], ['run', `--${flag}=  `, 'hello']]) {
      expect(() => parseCliFlags(args), args.join(' ')).toThrow(UsageError);
      expect(() => parseCliFlags(args), args.join(' ')).toThrow(`--${flag} needs a value`);
    }
  });

  it('a flag with a value still parses', () => {
    expect(parseCliFlags(['run', '--workspace=ws', '--model', 'm', 'hello'])).toMatchObject({ command: 'run', workspace: 'ws', model: 'm', positionals: ['hello'] });
  });
});
