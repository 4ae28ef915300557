/**
 * The tests' "browser": a login's `authorize` that records the authorization URL in `visits`, visits
 * it (the tests' authorization server approves at once) and follows its redirect back to weir's
 * loopback listener.
 */
export function testBrowser(visits: URL[]): (url: URL) => Promise<void> {
  return async (url) => {
    visits.push(url);
    const answer = await fetch(url, { redirect: 'manual' });
    const back = answer.headers.get('location');
    if (back === null) throw new Error(`the authorization server answered ${answer.status}: ${await answer.text()}`);
    await fetch(back);
  };
}
