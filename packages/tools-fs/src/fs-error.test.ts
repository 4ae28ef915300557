import { describe, expect, it } from 'vitest';
import { errnoCode, errnoRefusal, FsError } from './fs-error.js';

function systemError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed, open '/home/someone/secret/path'`), { code, errno: -1, syscall: 'open', path: '/home/someone/secret/path' });
}

describe('errnoRefusal', () => {
  it.each([
    ['ENOENT', 'NOT_FOUND'],
    ['ENOTDIR', 'NOT_A_DIRECTORY'],
    ['EISDIR', 'IS_A_DIRECTORY'],
    ['ELOOP', 'SYMLINK_LOOP'],
    ['EACCES', 'ACCESS_DENIED'],
    ['EPERM', 'ACCESS_DENIED'],
    ['ENAMETOOLONG', 'INVALID_PATH'],
    ['ENOSPC', 'FS_ERROR'],
    ['ENXIO', 'NOT_A_REGULAR_FILE'],
    ['EIO', 'FS_ERROR'],
  ])('%s becomes %s, naming only the path as given', (code, expected) => {
    const refused = errnoRefusal(systemError(code), '"a.txt"');
    expect(refused.code).toBe(expected);
    expect(refused.message).toContain('"a.txt"');
    expect(refused.message).not.toContain('/home/someone');
  });
});

describe('errnoCode', () => {
  it('reads system errors only: never an FsError code or an ERR_* code', () => {
    expect(errnoCode(systemError('ENOENT'))).toBe('ENOENT');
    expect(errnoCode(new FsError('PATH_CHANGED', 'x'))).toBeUndefined();
    expect(errnoCode(Object.assign(new TypeError('x'), { code: 'ERR_INVALID_ARG_VALUE' }))).toBeUndefined();
    expect(errnoCode('ENOENT')).toBeUndefined();
    expect(errnoCode(null)).toBeUndefined();
  });
});
