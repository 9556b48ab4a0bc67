// `node tools/chart-digest.ts VALUES DIGEST`: writes the digest of the image a release has just pushed into
// a chart's values, so that the chart published with it runs that very image. The injector and the sidecar
// are the same released image: the digest goes to sidecar.image.digest, which must exist, and to
// image.digest, the injector's own, where the values have it. The release workflow runs this on its own
// checkout before `helm package`; the repository's values keep empty digests. Node 24 runs this file as it
// is (no install, no build), so it imports nothing but Node's own modules and reads values.yaml by its
// layout instead of with a YAML parser: only the `digest:` lines of those two blocks are replaced, and
// every other line, comments included, stays as written. A file laid out otherwise is refused rather than
// guessed at.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** The values written, and where: each key is a dotted path (`sidecar.image.digest`). */
export interface Pinned {
  readonly values: string;
  readonly keys: readonly string[];
}

interface Block {
  readonly start: number;
  readonly end: number;
}

/** values.yaml with the image digests set; throws when it has no sidecar.image.digest line. */
export function pinImageDigest(values: string, digest: string): Pinned {
  if (!DIGEST.test(digest)) throw new Error(`not an image digest (sha256:64 hex digits): ${digest}`);
  const lines = values.split('\n');
  const whole = { start: 0, end: lines.length };
  const sidecar = blockAt(lines, whole, '', 'sidecar');
  if (sidecar === null) throw new Error('values.yaml has no sidecar: block at the top level');
  const sidecarImage = blockAt(lines, sidecar, '  ', 'image');
  if (sidecarImage === null) throw new Error('values.yaml has no image: block in sidecar:, indented 2');
  const sidecarDigest = keyAt(lines, sidecarImage, '    ', 'digest');
  if (sidecarDigest === null) throw new Error('values.yaml has no sidecar.image.digest line, indented 4');

  // The injector's image block is optional: a chart that names no digest for it has nothing to pin there.
  const image = blockAt(lines, whole, '', 'image');
  const imageDigest = image === null ? null : keyAt(lines, image, '  ', 'digest');
  const keys: string[] = [];
  if (imageDigest !== null) {
    lines[imageDigest] = `  digest: "${digest}"`;
    keys.push('image.digest');
  }
  lines[sidecarDigest] = `    digest: "${digest}"`;
  keys.push('sidecar.image.digest');
  return { values: lines.join('\n'), keys };
}

/** The lines of the block that `indent` + `key:` opens within a block: until the next key as indented. */
function blockAt(lines: readonly string[], within: Block, indent: string, key: string): Block | null {
  const opening = keyAt(lines, within, indent, key);
  if (opening === null || lines[opening] !== `${indent}${key}:`) return null;
  const sibling = new RegExp(`^${indent}[^\\s#]`);
  const next = lines.findIndex((line, index) => index > opening && index < within.end && sibling.test(line));
  return { start: opening + 1, end: next < 0 ? within.end : next };
}

/** The line within a block that sets `key` at exactly `indent`, or null. */
function keyAt(lines: readonly string[], within: Block, indent: string, key: string): number | null {
  const pattern = new RegExp(`^${indent}${key}:( |$)`);
  const found = lines.findIndex((line, index) => index >= within.start && index < within.end && pattern.test(line));
  return found < 0 ? null : found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [path, digest] = process.argv.slice(2);
  if (path === undefined || digest === undefined) {
    process.stderr.write('usage: node tools/chart-digest.ts VALUES_YAML sha256:DIGEST\n');
    process.exitCode = 2;
  } else {
    const pinned = pinImageDigest(readFileSync(path, 'utf8'), digest);
    writeFileSync(path, pinned.values);
    // The workflow's log says which values now name the image.
    for (const key of pinned.keys) process.stdout.write(`${key}: ${digest}\n`);
  }
}
