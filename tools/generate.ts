// `npm run generate`: writes the files derived from the code (their one source of truth), or with
// --check fails naming each one that is not what the code would write. A test runs the check.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedFiles } from './generated-files.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const check = process.argv.includes('--check');
const stale: string[] = [];
for (const [path, content] of Object.entries(generatedFiles(ROOT))) {
  const file = join(ROOT, path);
  let current: string | null;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = null;
  }
  if (current === content) continue;
  if (check) stale.push(path);
  else writeFileSync(file, content);
}
if (stale.length > 0) {
  process.stderr.write(`stale generated files (run npm run generate):\n${stale.map((p) => `  ${p}\n`).join('')}`);
  process.exitCode = 1;
}
