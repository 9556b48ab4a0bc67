// uninject(inject(x)) is x byte for byte, for every document of the repository's corpora: the shapes
// other projects write (test/fixtures/world), the project's own manifests, and files copied from other
// projects (test/fixtures/world-real, whose README names each source). inject writes only the nodes it
// changes and records the fields it filled that were empty or null; uninject takes out what it added
// and leaves those fields as they were. The documents written whole when they change are named below
// with why, and for them the round trip is the same value as kubectl reads it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import { injectManifestText, uninjectManifestText } from '../../src/injection/manifests/edit-manifests.js';
import { DEFAULTS } from '../helpers/injection.js';
import { REPO_ROOT } from '../helpers/tools.js';

const CORPORA = ['test/fixtures/world', 'test/fixtures/manifests', 'test/fixtures/world-real'];

/** Documents inject writes whole; the round trip gives back their value, not their text. */
const LAID_OUT_ANEW: Readonly<Record<string, string>> = {
  'test/fixtures/world/anchors.yaml': 'anchors: a changed document is written whole, an edit would reach each alias',
  'test/fixtures/world/duplicate-keys.yaml': 'a repeated key: a changed document is written whole',
};

const files = CORPORA.flatMap((dir) =>
  readdirSync(join(REPO_ROOT, dir))
    .filter((name) => /\.(ya?ml|json)$/.test(name))
    .map((name) => `${dir}/${name}`),
);

const valuesOf = (text: string): unknown[] =>
  /^\s*[[{]/.test(text)
    ? text
        .split(/(?<=\})\s*(?=\{)/)
        .filter((part) => part.trim() !== '')
        .map((part) => JSON.parse(part) as unknown)
    : parseAllDocuments(text).map((document) => document.toJS() as unknown);

test('the corpora hold the real manifests named in their READMEs', (t) => {
  t.true(files.length >= 35, `${files.length} files`);
  t.true(files.includes('test/fixtures/world-real/kube-prometheus-grafana-deployment.yaml'));
});

for (const file of files) {
  test(`uninject(inject(x)) is x: ${file}`, (t) => {
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    const injected = injectManifestText(text, file, DEFAULTS);
    t.deepEqual(injected.problems, []);
    const back = uninjectManifestText(injected.documents.join(''), file);
    t.deepEqual(back.problems, []);
    const result = back.documents.join('');
    if (LAID_OUT_ANEW[file] === undefined) t.is(result, text);
    else {
      t.not(result, text, `${file} now comes back byte for byte: take it out of LAID_OUT_ANEW`);
      t.deepEqual(valuesOf(result), valuesOf(text));
    }
  });
}
