// The container image, proven without a Docker engine: the Dockerfile passes a linter, and what its
// runtime stage would contain (the same build commands and copied paths, production dependencies
// only) starts as the image would, signs a request to the emulator with a read-only key store, runs the
// chart's postStart hook (wait-ready), and refuses to start without configuration (the image never
// falls back to the demo).
import { spawn } from 'node:child_process';
import * as nodeModule from 'node:module';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { validate } from 'dockerfile-utils';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { runProcess } from '../helpers/cli-process.js';
import { assembleStages, readInstructions } from '../helpers/dockerfile-runner.js';
import { send } from '../helpers/http.js';
import { keystoreJson } from '../helpers/keystore-stack.js';
import { REPO_ROOT } from '../helpers/tools.js';
import { imageScript } from '../helpers/workload-checks.js';

const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');

test('the Dockerfile passes the linter with no warning', (t) => {
  // LSP severities: 1 error, 2 warning.
  const problems = validate(dockerfile).filter((d) => d.severity === 1 || d.severity === 2);
  t.deepEqual(
    problems.map((p) => `${p.range.start.line + 1}: ${typeof p.message === 'string' ? p.message : p.message.value}`),
    [],
  );
});

test(
  'the Dockerfile follows the rules: multi-stage, ' +
    'distroless non-root runtime on Node LTS, node as ' +
    'entrypoint',
  (t) => {
    const instructions = readInstructions(dockerfile);
    const froms = instructions.filter((i) => i.keyword === 'FROM').map((i) => i.args);
    t.is(froms.length, 3);
    t.regex(froms[2]!, /^gcr\.io\/distroless\/nodejs(22|24)-debian12:nonroot@/, 'a supported Node LTS line');
    const runtime = instructions.slice(instructions.findIndex((i) => i.args.includes('AS runtime')));
    t.true(runtime.some((i) => i.keyword === 'USER' && i.args === 'nonroot'));
    t.true(runtime.some((i) => i.keyword === 'ENV' && i.args === 'NODE_ENV=production'));
    t.true(
      runtime.some(
        (i) =>
          i.keyword === 'ENV' &&
          i.args === 'NODE_OPTIONS="--disable-warning=DEP0060 --max-semi-space-size=4 --max-old-space-size=128"',
      ),
    );
    t.deepEqual(JSON.parse(runtime.find((i) => i.keyword === 'CMD')!.args), [
      '--no-maglev',
      '--no-allocation-site-pretenuring',
      'dist/src/main.js',
      'serve',
    ]);
    // The one command the runtime stage runs writes the compile cache: exec form, no shell, the image's
    // node with the flags of CMD, as the image's user, NODE_COMPILE_CACHE set.
    const runs = runtime.filter((i) => i.keyword === 'RUN');
    t.is(runs.length, 1);
    const cmd = JSON.parse(runtime.find((i) => i.keyword === 'CMD')!.args) as string[];
    t.deepEqual(JSON.parse(runs[0]!.args), [
      '/nodejs/bin/node',
      ...cmd.filter((arg) => arg.startsWith('--')),
      'dist/src/warm-compile-cache.js',
    ]);
    const at = (keyword: string, args: string): number =>
      runtime.findIndex((i) => i.keyword === keyword && i.args.startsWith(args));
    t.true(at('USER', 'nonroot') < at('RUN', '['), 'written by the user that reads it');
    t.true(at('ENV', 'NODE_COMPILE_CACHE=') < at('RUN', '['));
    t.true(at('ENV', 'NODE_OPTIONS=') < at('RUN', '['));
    t.true(runtime.some((i) => i.keyword === 'LABEL' && i.args.includes('org.opencontainers.image.title')));
  },
);

// A digest is what is built on; the tag beside it says what it is, and lets the dependency bot update both.
const PINNED = /^[a-z0-9./-]+:[\w.-]+@sha256:[0-9a-f]{64}$/;

test('each base image is pinned by digest, written out in full; the JavaScript is built on the build platform', (t) => {
  const instructions = readInstructions(dockerfile);
  const froms = instructions.filter((i) => i.keyword === 'FROM').map((i) => i.args.split(' '));
  t.deepEqual(
    froms.map((words) => words.at(-1)),
    ['build', 'deps', 'runtime'],
  );
  const images = froms.map((words) => words.filter((word) => !word.startsWith('--'))[0]!);
  for (const image of images) t.regex(image, PINNED, 'a literal image:tag@sha256:..., no build argument');
  // The stages that run npm make JavaScript and dependencies without native addons: built once, on the
  // builder's platform. The runtime stage is the target platform's own image and runs only its own node,
  // to write the compile cache for that platform.
  const stages = instructions.reduce<{ from: string; runs: boolean }[]>((all, i) => {
    if (i.keyword === 'FROM') all.push({ from: i.args, runs: false });
    else if (i.keyword === 'RUN') all.at(-1)!.runs = true;
    return all;
  }, []);
  t.deepEqual(
    stages.map((stage) => [stage.runs, stage.from.startsWith('--platform=$BUILDPLATFORM ')]),
    [
      [true, true],
      [true, true],
      [true, false],
    ],
  );
  // What makes the build platform's output right for every target: no production package builds or
  // downloads a native part at install (npm records an install script), or exists for some platforms only.
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; hasInstallScript?: boolean; os?: string[]; cpu?: string[] }>;
  };
  const platformBound = Object.entries(lock.packages).filter(
    ([path, entry]) => path !== '' && entry.dev !== true && (entry.hasInstallScript || entry.os || entry.cpu),
  );
  t.deepEqual(
    platformBound.map(([path]) => path),
    [],
  );
  // One Node line in all three: node:24-... builds what nodejs24 runs.
  const lines = images.map((image) => /\bnode(?:js)?:?(\d+)-/.exec(image)?.[1]);
  t.is(new Set(lines).size, 1, lines.join(', '));
  t.not(lines[0], undefined);
});

test('the runtime stage, assembled as the Dockerfile says, signs a request with a read-only key store', async (t) => {
  t.timeout(180_000);
  const stages = assembleStages(REPO_ROOT, join(REPO_ROOT, 'Dockerfile'), {
    ...process.env,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
  });
  const runtime = stages.at(-1)!;
  const app = join(runtime.root, runtime.workdir);
  t.true(existsSync(join(app, 'dist/src/main.js')));
  t.false(existsSync(join(app, 'src')), 'no sources');
  t.false(existsSync(join(app, 'dist/test')), 'no tests');
  for (const dev of ['typescript', 'ava', 'eslint', '@aws-cdk'])
    t.false(existsSync(join(app, 'node_modules', dev)), `${dev} is a dev dependency`);
  for (const prod of ['hono', 'http-proxy', 'prom-client', 'pino'])
    t.true(existsSync(join(app, 'node_modules', prod)), prod);
  // Written by the image's node where it has a compile cache (22.1 and later); this machine's may not.
  const cache = join(app, 'compile-cache');
  t.true(existsSync(cache));
  if ('enableCompileCache' in nodeModule)
    t.true(
      readdirSync(cache, { recursive: true }).length > 100,
      'the modules of serve and wait-ready are in the compile cache',
    );

  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map([['AKIMAGE', { secret: Buffer.from('image-test-secret-3c1d'), customerId: 12345 }]]),
  });
  t.teardown(() => emulator.close());
  const keys = mkdtempSync(join(tmpdir(), 'sfd-ro-'));
  writeFileSync(
    join(keys, 'keystore.json'),
    keystoreJson({ default: { keys: [{ accessKeyId: 'AKIMAGE', secret: 'image-test-secret-3c1d' }] } }),
  );
  chmodSync(join(keys, 'keystore.json'), 0o444);
  chmodSync(keys, 0o555);

  const child = spawn(process.execPath, runtime.cmd, {
    cwd: app,
    env: {
      PATH: process.env.PATH,
      ...runtime.env,
      SFD_UPSTREAM_URL: emulator.url,
      SFD_KEYSTORE_FILE: join(keys, 'keystore.json'),
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => child.kill('SIGKILL'));
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /"signing":"127\.0\.0\.1:(\d+)"/.exec(out);
      if (match) {
        clearInterval(timer);
        resolve(match[1]!);
      }
    }, 50);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  const answer = await send(`http://127.0.0.1:${port}/v1.1/customer/12345`);
  t.is(answer.status, 200);
  t.is(emulator.state.accepted.at(-1)?.accessKeyId, 'AKIMAGE');
  // The chart's postStart hook of a classic sidecar (test/helpers/workload-checks.ts) runs in the image.
  const adminListen = /"admin":"(127\.0\.0\.1:\d+)"/.exec(out)![1]!;
  const hook = await runProcess(
    process.execPath,
    [join(runtime.root, imageScript()), 'wait-ready', '--timeout-ms', '5000'],
    {
      cwd: app,
      env: { ...runtime.env, SFD_ADMIN_LISTEN: adminListen },
    },
  );
  t.is(hook.code, 0, hook.stderr);
  child.kill('SIGTERM');
  t.is(await new Promise((resolve) => child.on('exit', resolve)), 0);

  const bare = spawn(process.execPath, runtime.cmd, {
    cwd: app,
    env: { PATH: process.env.PATH, ...runtime.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  bare.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  t.is(await new Promise((resolve) => bare.on('exit', resolve)), 2);
  t.regex(err, /SFD_UPSTREAM_URL: required \(NODE_ENV=production never falls back to the demo\)/);
});
