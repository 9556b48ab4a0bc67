// The command as a user gets it outside a clone: `npm pack`, then `npm install --global` of the tarball
// into an empty prefix, then the installed `sfd-sidecar` run by its name. The tarball holds the compiled
// code only; the install takes the production dependencies from the registry and nothing else.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import { mainHelp } from '../../src/cli/help.js';
import { IMAGE_REPOSITORY } from '../../src/version.js';
import { runProcess } from '../helpers/cli-process.js';
import { REPO_ROOT, runTool } from '../helpers/tools.js';

interface PackageJson {
  name: string;
  version: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const PACKAGE = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;

/** npm with the test's environment (registry, cache and proxy settings as configured); flags win over it. */
function npm(args: readonly string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return runProcess('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env });
}

/** Files under a directory, relative to it, with `/` between names. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

/** The names of the packages installed under a node_modules directory, nested ones included. */
function installedPackages(nodeModules: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(nodeModules).filter((name) => !name.startsWith('.'));
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    if (name.startsWith('@'))
      return readdirSync(join(nodeModules, name)).flatMap((inner) => [
        `${name}/${inner}`,
        ...installedPackages(join(nodeModules, name, inner, 'node_modules')),
      ]);
    return [name, ...installedPackages(join(nodeModules, name, 'node_modules'))];
  });
}

test('packed and installed globally into an empty prefix, sfd-sidecar runs with production dependencies', async (t) => {
  // Packing, and installing from the registry, take as long as the network and a busy machine make them.
  t.timeout(10 * 60_000);
  const work = mkdtempSync(join(tmpdir(), 'sfd-cli-package-'));
  t.teardown(() => rmSync(work, { recursive: true, force: true }));

  // The suite runs from dist/: the prepack build would empty it under the other test files, so the test
  // packs the build that is already there.
  const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], REPO_ROOT);
  t.is(packed.code, 0, packed.stderr);
  const [tarball] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  t.is(tarball?.filename, `${PACKAGE.name}-${PACKAGE.version}.tgz`);
  // The compiled sources and the one declaration file the `./notifications` export names: no tests, no
  // tools, no TypeScript sources or source maps.
  const compiled = filesUnder(join(REPO_ROOT, 'dist/src'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => `dist/src/${file}`);
  t.deepEqual(
    tarball!.files.map((file) => file.path).sort(),
    ['LICENSE', 'README.md', 'package.json', 'dist/src/notify/notifications.d.ts', ...compiled].sort(),
  );
  t.is(PACKAGE.bin['sfd-sidecar'], 'dist/src/main.js');
  t.true(readFileSync(join(REPO_ROOT, 'dist/src/main.js'), 'utf8').startsWith('#!/usr/bin/env node\n'));

  const prefix = join(work, 'prefix');
  mkdirSync(prefix);
  const installed = await npm(
    ['install', '--global', '--prefix', prefix, '--omit=dev', join(work, tarball!.filename)],
    work,
  );
  t.is(installed.code, 0, installed.stderr);
  t.deepEqual(
    readdirSync(join(prefix, 'lib/node_modules')).filter((name) => !name.startsWith('.')),
    [PACKAGE.name],
  );
  const home = join(prefix, 'lib/node_modules', PACKAGE.name);
  const packages = installedPackages(join(home, 'node_modules'));
  t.deepEqual(
    Object.keys(PACKAGE.dependencies).filter((name) => !packages.includes(name)),
    [],
    'every dependency is installed',
  );
  // A devDependency that a production library needs too (the lock does not mark it dev) is that library's.
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  t.deepEqual(
    Object.keys(PACKAGE.devDependencies).filter(
      (name) => packages.includes(name) && lock.packages[`node_modules/${name}`]?.dev === true,
    ),
    [],
    'no devDependency is installed',
  );
  const bin = join(prefix, 'bin', 'sfd-sidecar');
  t.true(lstatSync(bin).isSymbolicLink());
  // The same program as a kubectl plugin: kubectl runs `kubectl-sfd` found on PATH for `kubectl sfd`.
  t.is(PACKAGE.bin['kubectl-sfd'], 'dist/src/main.js');
  t.true(lstatSync(join(prefix, 'bin', 'kubectl-sfd')).isSymbolicLink());
  t.not(statSync(join(home, 'dist/src/main.js')).mode & 0o111, 0, 'the installed main.js is executable');

  // Run by its name, as a shell would, from an empty directory (no .env) and with no SFD_ setting; the
  // shebang finds the node that runs this test.
  const cwd = join(work, 'cwd');
  mkdirSync(cwd);
  const env = { PATH: [join(prefix, 'bin'), dirname(process.execPath), process.env.PATH ?? ''].join(delimiter) };
  const run = (args: readonly string[], input?: string) => runProcess('sfd-sidecar', args, { cwd, env, input });

  const version = await run(['--version']);
  t.deepEqual(version, { code: 0, stdout: `sfd-sidecar ${PACKAGE.version}\n`, stderr: '' });

  const help = await run(['--help']);
  t.deepEqual(help, { code: 0, stdout: mainHelp(PACKAGE.version), stderr: '' });
  t.regex(help.stdout, /^Usage: sfd-sidecar \[COMMAND\]/m);

  const schema = await run(['keys', 'schema']);
  t.is(schema.code, 0, schema.stderr);
  t.deepEqual(
    JSON.parse(schema.stdout),
    JSON.parse(readFileSync(join(REPO_ROOT, 'schema/keystore.schema.json'), 'utf8')),
  );

  const pod = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: app, image: app}]}\n';
  const injected = await run(['inject', '--keystore-secret', 'sfd-keys', '-'], pod);
  t.is(injected.code, 0, injected.stderr);
  t.regex(injected.stderr, /^injected Pod\/p \(stdin, document 1\)$/m);
  const [document] = parseAllDocuments(injected.stdout).map(
    (doc) => doc.toJS() as { spec: { initContainers: { name: string; image: string }[] } },
  );
  t.deepEqual(
    document?.spec.initContainers.map(({ name, image }) => ({ name, image })),
    [{ name: 'sfd-sidecar', image: `${IMAGE_REPOSITORY}:${PACKAGE.version}` }],
  );
});

test('no text tells a user to run sfd-sidecar through npx, which asks the registry for a name never published', (t) => {
  // The pattern is built so that this file does not match it.
  const npx = ['np', 'x( -y| --yes)? +sfd-sidecar'].join('');
  const found = runTool('git', ['grep', '-n', '-E', '-e', npx, '--', '.', ':!package-lock.json']);
  t.is(found.stdout, '', 'the installed command is `sfd-sidecar`');
});
