/**
 * The Windows-specific forms a path can take (docs/reliability.md 1.1 rule 8, catalogue block F). On POSIX
 * every one of them is refused, so a workspace means the same thing to every user and a model
 * cannot smuggle a Windows meaning past a POSIX check. A Windows leg would reuse these detectors:
 * refuse `device-namespace`, `unc`, `drive-relative`, `alternate-data-stream`, `reserved-name`,
 * `trailing-dot-or-space` and `short-name`, and accept `drive-absolute` and `backslash` as
 * separators before the containment check.
 */
export type WindowsPathForm =
  /** `\\?\C:\...`, `\\.\PhysicalDrive0`, `\\?\UNC\...`: device and extended namespaces. */
  | 'device-namespace'
  /** `\\host\share\...` (or `//host/share`): touching it makes Windows try SMB authentication. */
  | 'unc'
  /** `C:\x` or `C:/x`. */
  | 'drive-absolute'
  /** `C:x`: relative to the current directory of drive C. */
  | 'drive-relative'
  /** `a\b`: a separator on Windows, `..\` a traversal there. */
  | 'backslash'
  /** `notes.txt:hidden`, `notes.txt::$DATA`: an NTFS alternate data stream. */
  | 'alternate-data-stream'
  /** `CON`, `NUL`, `COM1.txt`, `aux.js`: DOS device names, with or without an extension. */
  | 'reserved-name'
  /** `secret.txt.` or `secret.txt `: Win32 strips them, so the name means another file. */
  | 'trailing-dot-or-space'
  /** `PROGRA~1`, `SECRET~1.TXT`: 8.3 short names, aliases of long names. */
  | 'short-name';

const DEVICE_NAMESPACE = /^[\\/]{2}[?.][\\/]/;
const UNC = /^[\\/]{2}[^\\/]/;
const DRIVE_ABSOLUTE = /^[a-z]:[\\/]/i;
const DRIVE_RELATIVE = /^[a-z]:/i;
// Checked on the part before the first dot, as Windows does: `aux.js` and `NUL .txt` are devices.
const RESERVED_NAME = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$) *(?:\..*)?$/i;
const SHORT_NAME = /~\d/;

/** A short description of each form, for the message the model reads. */
export const WINDOWS_FORM_DESCRIPTIONS: Readonly<Record<WindowsPathForm, string>> = Object.freeze({
  'device-namespace': 'a Windows device or extended-length path',
  unc: 'a UNC network path',
  'drive-absolute': 'a Windows drive path',
  'drive-relative': 'a drive-relative Windows path',
  backslash: 'backslashes, which are separators on Windows',
  'alternate-data-stream': 'a colon, which names an alternate data stream on Windows',
  'reserved-name': 'a reserved Windows device name',
  'trailing-dot-or-space': 'a name ending in a dot or a space, which Windows strips',
  'short-name': 'what looks like a Windows 8.3 short name (~1)',
});

/**
 * The first Windows-specific form found in `input`, or `undefined` for a plain POSIX path.
 * Pure and total: never throws, touches no file system.
 */
export function windowsPathForm(input: string): WindowsPathForm | undefined {
  if (DEVICE_NAMESPACE.test(input)) return 'device-namespace';
  if (UNC.test(input)) return 'unc';
  if (DRIVE_ABSOLUTE.test(input)) return 'drive-absolute';
  if (DRIVE_RELATIVE.test(input)) return 'drive-relative';
  if (input.includes('\\')) return 'backslash';
  if (input.includes(':')) return 'alternate-data-stream';
  for (const name of input.split('/')) {
    if (name === '' || name === '.' || name === '..') continue;
    if (RESERVED_NAME.test(name)) return 'reserved-name';
    if (name.endsWith('.') || name.endsWith(' ')) return 'trailing-dot-or-space';
    if (SHORT_NAME.test(name)) return 'short-name';
  }
  return undefined;
}
