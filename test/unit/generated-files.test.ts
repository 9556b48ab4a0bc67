// Files derived from the code (the chart's values schema, the kustomize Component's patch...) are what
// `npm run generate` would write now.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { generatedFiles } from '../../tools/generated-files.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

for (const [path, content] of Object.entries(generatedFiles(REPO_ROOT))) {
  test(`${path} is current (npm run generate)`, (t) => {
    t.is(readFileSync(join(REPO_ROOT, path), 'utf8'), content);
  });
}
