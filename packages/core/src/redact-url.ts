/**
 * A URL as it may be shown in an error, a log line or a span: the password and user name of
 * `user:pass@` become `***`, and so does every query value (`?api_key=***&page=***`: names are kept,
 * since which parameter carried a secret cannot be told from its name alone); the fragment is left
 * out. Text that does not parse as a URL is cut the same way by pattern. Never throws.
 */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = url instanceof URL ? new URL(url.href) : new URL(String(url).trim());
  } catch {
    return redactUnparsed(String(url));
  }
  if (parsed.username !== '') parsed.username = '***';
  if (parsed.password !== '') parsed.password = '***';
  parsed.hash = '';
  if (parsed.search === '') return parsed.href;
  const names = [...parsed.searchParams.keys()];
  parsed.search = '';
  return `${parsed.href}?${names.map((name) => `${encodeURIComponent(name)}=***`).join('&')}`;
}

function redactUnparsed(text: string): string {
  return text
    .replace(/(\/\/)[^/@\s]*@/g, '$1***@')
    .replace(/([?&][^=&#\s]*=)[^&#\s]*/g, '$1***')
    .replace(/#.*$/, '');
}
