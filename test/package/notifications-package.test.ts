// The notifications package as an application gets it: packed with `npm pack`, installed from the
// tarball into a fresh project, and the documented example run against a real event.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { recordingEvent } from '../../src/notify/build-events.js';
import { send } from '../helpers/http.js';
import { REPO_ROOT } from '../helpers/tools.js';

const PACKAGE_DIR = join(REPO_ROOT, 'packages/notifications');
const npm = (args: string[], cwd: string): string =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8' });

/** The first ```js block of the notifications page: the example an application copies. */
function documentedExample(): string {
  const page = readFileSync(join(REPO_ROOT, 'docs/notifications.md'), 'utf8');
  const block = /```js\n([\s\S]*?)```/.exec(page);
  if (!block?.[1]) throw new Error('docs/notifications.md has no js example');
  return block[1];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

test('packed and installed in a fresh project, the documented example takes a typed event', async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'sfd-notifications-'));
  t.teardown(() => rmSync(work, { recursive: true, force: true }));
  npm(['pack', '--pack-destination', work], PACKAGE_DIR);
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  t.truthy(tarball);

  const app = join(work, 'app');
  execFileSync('mkdir', [app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  npm(['install', '--prefer-offline', join(work, tarball!)], app);
  // Only the parser and what it needs: no listener, proxy or metrics library comes with it.
  t.deepEqual(
    readdirSync(join(app, 'node_modules'))
      .filter((name) => !name.startsWith('.'))
      .sort(),
    ['@sfd-sidecar', 'zod'],
  );

  // The example type-checks as TypeScript against the package's declarations...
  writeFileSync(join(app, 'example.ts'), documentedExample());
  const tsc = join(REPO_ROOT, 'node_modules/.bin/tsc');
  const typeRoots = join(REPO_ROOT, 'node_modules/@types');
  const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--types', 'node'];
  execFileSync(tsc, [...flags, '--typeRoots', typeRoots, 'example.ts'], { cwd: app, encoding: 'utf8' });

  // ...and runs as it is, taking an event the relay would hand on.
  writeFileSync(join(app, 'example.js'), documentedExample());
  const port = await freePort();
  const child = spawn(process.execPath, ['example.js'], { cwd: app, env: { ...process.env, PORT: String(port) } });
  t.teardown(() => child.kill());
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const startedMs = Date.parse('2026-11-26T00:00:00Z');
  const event = recordingEvent({
    status: 'ended',
    recordingId: 'rec-1',
    streamId: 'str-1',
    startedMs,
    nowMs: startedMs + 60_000,
    accessUrl: 'https://recordings.example/rec-1.mp4',
  });
  let status = 0;
  for (let attempt = 0; attempt < 100 && status === 0; attempt += 1) {
    status = await send(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': event.id },
      body: JSON.stringify(event),
    }).then(
      (answer) => answer.status,
      () => new Promise<number>((resolve) => setTimeout(() => resolve(0), 50)),
    );
  }
  t.is(status, 200);
  t.is(output, `recording rec-1 ended (${event.id})\n`);
});

test("the package carries the sidecar's version and the same zod range", (t) => {
  const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };
  const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as typeof root;
  t.is(pkg.version, root.version);
  t.deepEqual(pkg.dependencies, { zod: root.dependencies.zod });
});
