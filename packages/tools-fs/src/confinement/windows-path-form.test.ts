import { describe, expect, it } from 'vitest';
import { windowsPathForm, type WindowsPathForm } from './windows-path-form.js';

describe('windowsPathForm', () => {
  it.each<[string, WindowsPathForm]>([
    ['\\\\?\\C:\\Windows\\win.ini', 'device-namespace'],
    ['\\\\.\\PhysicalDrive0', 'device-namespace'],
    ['//?/C:/x', 'device-namespace'],
    ['\\\\?\\UNC\\host\\share', 'device-namespace'],
    ['\\\\attacker.example\\share\\x', 'unc'],
    ['//attacker.example/share', 'unc'],
    ['\\\\localhost\\c$\\ws', 'unc'],
    ['C:\\Windows\\win.ini', 'drive-absolute'],
    ['c:/Windows/win.ini', 'drive-absolute'],
    ['C:secret.txt', 'drive-relative'],
    ['src\\..\\..\\x', 'backslash'],
    ['%USERPROFILE%\\.aws', 'backslash'],
    ['notes.txt:hidden', 'alternate-data-stream'],
    ['notes.txt::$DATA', 'alternate-data-stream'],
    ['NUL', 'reserved-name'],
    ['con', 'reserved-name'],
    ['COM1.txt', 'reserved-name'],
    ['aux.js', 'reserved-name'],
    ['dir/LPT9', 'reserved-name'],
    ['NUL .txt', 'reserved-name'],
    ['conin$', 'reserved-name'],
    ['secret.txt.', 'trailing-dot-or-space'],
    ['secret.txt ', 'trailing-dot-or-space'],
    ['dir./x', 'trailing-dot-or-space'],
    ['...', 'trailing-dot-or-space'],
    ['PROGRA~1/x', 'short-name'],
    ['SECRET~1.TXT', 'short-name'],
  ])('%j is %s', (input, form) => {
    expect(windowsPathForm(input)).toBe(form);
  });

  it.each([['src/a.ts'], ['/abs/x'], ['.'], ['..'], ['../x'], ['./x'], ['console.log'], ['auxiliary.ts'], ['nullable.ts'], ['com.example'], ['backup~'], ['.env'], ['a b/c d.txt']])(
    '%j is a plain POSIX path',
    (input) => {
      expect(windowsPathForm(input)).toBeUndefined();
    },
  );
});
