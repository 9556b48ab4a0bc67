// The anchors GitHub gives a Markdown page's headings, for tests that check links into the docs.

/** GitHub's anchors of a Markdown text's headings: lower case, without punctuation, spaces as hyphens. */
export function anchorsOf(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#{1,4} (.+)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replaceAll(' ', '-'),
    ),
  );
}
