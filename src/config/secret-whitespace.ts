// A secret with whitespace at either end (beyond the one trailing newline a file may end with) is used
// as it is, and every request then gets 401: a copy-paste slip that looks like a wrong key. It is said
// at start, never with the secret itself.

/** What is odd about the secret's edges, or null; never the secret. */
export function secretWhitespaceProblem(secret: string): string | null {
  const leading = /^\s+/.exec(secret)?.[0].length ?? 0;
  const trailing = /\s+$/.exec(secret)?.[0].length ?? 0;
  if (leading === 0 && trailing === 0) return null;
  const characters = (count: number): string => `${count} whitespace character${count === 1 ? '' : 's'}`;
  const where = [
    leading > 0 ? `${characters(leading)} at its start` : '',
    trailing > 0 ? `${characters(trailing)} at its end` : '',
  ]
    .filter((part) => part !== '')
    .join(' and ');
  return (
    `has ${where}, which are signed with it: the gateway then refuses every request (401) unless its copy has ` +
    `them too`
  );
}
