// A setting's name is written once, where its feature declares it: code that names a setting in a message
// or a container's environment refers to the registry, so a renamed setting cannot leave a stale name
// behind. The error catalog is a foundation that imports nothing, so it spells names out; each must
// be a setting.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { SETTING_LIST } from '../../../src/settings/all-settings.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const SRC = join(REPO_ROOT, 'src');
const SETTING_NAMES = new Set<string>(SETTING_LIST.map((setting) => setting.env));
const NAME = /\bSFD_[A-Z0-9_]*[A-Z0-9]\b/g;
/** The files that declare settings, each feature its own, and the error catalog. */
const DECLARING = [
  'config/settings.ts',
  'injection/injected-sidecar-settings.ts',
  'injection/injector-settings.ts',
  'injection/policy-settings.ts',
  'notify/settings/notify-settings.ts',
  'errors.ts',
];

/** The names of settings written out in a file's code, comments left out. */
function namesInCode(text: string): string[] {
  const code = text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
    .map((line) => line.replace(/\s\/\/ .*$/, ''))
    .join('\n');
  return (code.match(NAME) ?? []).filter((name) => SETTING_NAMES.has(name));
}

test('outside the settings declarations and the error catalog, code names settings through the registry', (t) => {
  const written = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !DECLARING.includes(file))
    .flatMap((file) => namesInCode(readFileSync(join(SRC, file), 'utf8')).map((name) => `${file}: ${name}`));
  t.deepEqual(written, []);
});

test('every setting the error catalog names is a setting', (t) => {
  const named = readFileSync(join(SRC, 'errors.ts'), 'utf8').match(NAME) ?? [];
  t.true(named.length > 0);
  t.deepEqual(
    named.filter((name) => !SETTING_NAMES.has(name)),
    [],
  );
});
