import { describe, expect, it } from 'vitest';
import { checkGlobPattern } from './find-matching-files.js';

describe('checkGlobPattern', () => {
  it.each([['**/*.ts'], ['src/**'], ['*.{json,yaml}'], ['+(a|b).txt'], ['.github/**'], ['a..b/*'], ['x/..y']])('accepts %j', (pattern) => {
    expect(checkGlobPattern(pattern)).toBeUndefined();
  });

  it.each([[''], ['  '], [7], ['/etc/*'], ['../**/*.pem'], ['**/../../*'], ['a/..'], ['{..,src}/*'], ['{src,..}/x'], ['~/x'], ['src\\*.ts'], ['a\u0000'], ['x'.repeat(1001)]])(
    'refuses %j with INVALID_PATTERN',
    (pattern) => {
      expect(checkGlobPattern(pattern)).toMatchObject({ ok: false, code: 'INVALID_PATTERN' });
    },
  );
});
