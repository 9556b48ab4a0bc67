// Where the image, the chart and the command come from, and how a release proves it: the project's home
// is recorded once (package.json's repository), and the chart's home and sources, the default images of
// the chart and of `inject`, the release workflow's registry and the tarball the docs install all follow
// it; no placeholder image or source remains anywhere. The release labels the image from the git tag and
// the commit, scans it before pushing it, pushes it with an SBOM and provenance, signs it and the chart by
// digest, and publishes a chart pinned to the image it has just pushed: its packaging step runs here, with
// helm, on a copy of the chart. docs/releasing.md verifies the signatures against the release workflow's
// identity. Every workflow passes actionlint, every action is pinned by commit, and renovate.json keeps
// the pins current.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { pinImageDigest } from '../../tools/chart-digest.js';
import { lintWorkflow } from '../helpers/actionlint.js';
import { runCli, runProcess } from '../helpers/cli-process.js';
import { readInstructions } from '../helpers/dockerfile-runner.js';
import { kubeTool } from '../helpers/k8s-tools.js';
import { REPO_ROOT, runTool } from '../helpers/tools.js';
import { HOME_REPOSITORY, IMAGE_REPOSITORY, VERSION } from '../../src/version.js';

const read = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  // An action's inputs are scalars.
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const WORKFLOWS = readdirSync(join(REPO_ROOT, '.github/workflows'))
  .filter((file) => /\.ya?ml$/.test(file))
  .map((file) => `.github/workflows/${file}`);
const workflow = (path: string): Workflow => parse(read(path)) as Workflow;
const release = (): Workflow => workflow('.github/workflows/release.yml');
const runs = (job: Job, command: RegExp): boolean => job.steps.some((step) => command.test(step.run ?? ''));
/** The one step of a job that an action or a command picks out, and where it is in the job. */
function stepOf(job: Job, which: (step: Step) => boolean, what: string): [Step, number] {
  const found = job.steps.filter(which);
  if (found.length !== 1) throw new Error(`${found.length} steps are ${what}`);
  return [found[0]!, job.steps.indexOf(found[0]!)];
}
const using = (action: string) => (step: Step) => step.uses?.startsWith(`${action}@`) === true;
const withValue = (step: Step, input: string): string => String(step.with?.[input] ?? '');
/** `NAME=value` lines of a build step's build-args, as a map. */
const buildArgs = (step: Step): Map<string, string> =>
  new Map(
    withValue(step, 'build-args')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')).trim(), line.slice(line.indexOf('=') + 1).trim()]),
  );

test("the chart's home, sources and images follow package.json's repository", (t) => {
  const home = (JSON.parse(read('package.json')) as { homepage: string }).homepage;
  t.is(home, `https://github.com/${HOME_REPOSITORY}`);
  t.is(IMAGE_REPOSITORY, 'ghcr.io/sfd-sidecar/sfd-sidecar');
  const chart = parse(read('helm/sfd-sidecar/Chart.yaml')) as { home: string; sources: string[]; icon: string };
  t.is(chart.home, home);
  t.deepEqual(chart.sources, [home]);
  t.true(chart.icon.startsWith(`https://raw.githubusercontent.com/${HOME_REPOSITORY}/`));
  const values = parse(read('helm/sfd-sidecar/values.yaml')) as {
    image: { repository: string };
    sidecar: { image: { repository: string } };
  };
  t.is(values.image.repository, IMAGE_REPOSITORY);
  t.is(values.sidecar.image.repository, IMAGE_REPOSITORY);
});

test("inject's default image is the published one at this version; no placeholder image is left", async (t) => {
  const run = await runCli(['inject', '--keystore-secret', 'k', '-'], {
    input: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, image: b}]}\n',
  });
  t.is(run.code, 0, run.stderr);
  t.true(run.stdout.includes(`image: "${IMAGE_REPOSITORY}:${VERSION}"`));
  // The patterns are built so that this file does not match them.
  for (const placeholder of [['ghcr.io', 'example'].join('/'), ['example', 'invalid'].join('.')]) {
    const tracked = runTool('git', ['grep', '-l', '-F', '-e', placeholder, '--', '.']);
    t.is(tracked.stdout, '', `no file names ${placeholder}`);
  }
});

test('the release workflow builds both architectures and pushes them, and the chart, to the home registry', (t) => {
  const text = read('.github/workflows/release.yml');
  const parsed = release();
  t.deepEqual((parsed.on as { push: { tags: string[] } }).push.tags, ['v*.*.*']);
  const [build] = stepOf(
    parsed.jobs.release!,
    (step) => using('docker/build-push-action')(step) && String(step.with?.push) === 'true',
    'pushing an image',
  );
  t.is(withValue(build, 'platforms'), 'linux/amd64,linux/arm64');
  t.regex(text, /image=ghcr\.io\/\$\{GITHUB_REPOSITORY,,\}/, 'the image is ghcr.io/OWNER/NAME');
  t.regex(text, /helm push .* "\$\{CHARTS\}"/, 'the chart is pushed as an OCI artifact');
});

test('the image says which version, commit and source it is: from the tag, through every label', (t) => {
  const job = release().jobs.release!;
  const [meta, metaAt] = stepOf(job, using('docker/metadata-action'), 'docker/metadata-action');
  t.is(meta.id, 'meta');
  t.is(withValue(meta, 'images'), '${{ env.IMAGE }}');
  t.is(job.env?.IMAGE, '${{ needs.test.outputs.image }}');
  t.deepEqual(withValue(meta, 'tags').trim().split('\n'), [
    'type=semver,pattern={{version}}',
    'type=semver,pattern={{major}}.{{minor}}',
  ]);
  t.is(withValue(meta, 'flavor'), 'latest=false', 'X.Y.Z and X.Y only');

  // Every build argument the Dockerfile's labels read is given by each build, and the action's labels
  // (which name the same version, revision and source) and tags are passed to it.
  const instructions = readInstructions(read('Dockerfile'));
  const runtime = instructions.slice(instructions.findLastIndex((i) => i.keyword === 'FROM'));
  const labels = runtime.filter((i) => i.keyword === 'LABEL').map((i) => i.args);
  const labelArgs = new Set(labels.flatMap((label) => [...label.matchAll(/\$\{?(\w+)\}?/g)].map((m) => m[1]!)));
  t.deepEqual([...labelArgs].sort(), ['REVISION', 'SOURCE', 'VERSION']);
  const declared = runtime.filter((i) => i.keyword === 'ARG').map((i) => i.args);
  t.deepEqual(declared.sort(), ['REVISION', 'SOURCE', 'VERSION'], 'declared with no default that could claim one');
  const builds = job.steps.filter(using('docker/build-push-action'));
  t.is(builds.length, 2, 'one build for the scan, one that pushes');
  for (const build of builds) {
    t.true(job.steps.indexOf(build) > metaAt);
    const args = buildArgs(build);
    for (const name of labelArgs) t.true(args.has(name), `${build.name} passes ${name}`);
    t.is(args.get('VERSION'), '${{ steps.meta.outputs.version }}');
    t.is(args.get('REVISION'), '${{ github.sha }}');
    t.is(args.get('SOURCE'), '${{ github.server_url }}/${{ github.repository }}');
    t.is(withValue(build, 'labels'), '${{ steps.meta.outputs.labels }}');
    t.is(withValue(build, 'context'), '.', 'the checked-out tree, not a fresh clone');
  }
  const pushing = builds.find((build) => String(build.with?.push) === 'true')!;
  t.is(withValue(pushing, 'tags'), '${{ steps.meta.outputs.tags }}');
  t.is(withValue(pushing, 'annotations'), '${{ steps.meta.outputs.annotations }}');

  // The labels the action adds by hand are the Dockerfile's own, word for word.
  const given = new Map(
    withValue(meta, 'labels')
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  for (const [name, value] of given) t.true(labels.join(' ').includes(`${name}="${value}"`), name);
});

test('the image is scanned before it is pushed, pushed with an SBOM and provenance, and signed by digest', (t) => {
  const jobs = release().jobs;
  const job = jobs.release!;
  const [scanBuild, scanBuildAt] = stepOf(
    job,
    (step) => using('docker/build-push-action')(step) && step.with?.load === true,
    'building the image for the scan',
  );
  t.is(withValue(scanBuild, 'platforms'), 'linux/amd64');
  t.is(String(scanBuild.with?.push), 'false');
  const [scan, scanAt] = stepOf(job, using('aquasecurity/trivy-action'), 'the scan');
  t.is(withValue(scan, 'image-ref'), withValue(scanBuild, 'tags'));
  t.is(withValue(scan, 'severity'), 'HIGH,CRITICAL');
  t.is(withValue(scan, 'ignore-unfixed'), 'true');
  t.is(withValue(scan, 'exit-code'), '1', 'a finding fails the release');
  t.is(withValue(scan, 'vuln-type'), 'os,library');
  const [, loginAt] = stepOf(job, using('docker/login-action'), 'the registry login');
  const [push, pushAt] = stepOf(
    job,
    (step) => using('docker/build-push-action')(step) && String(step.with?.push) === 'true',
    'pushing the image',
  );
  t.true(scanBuildAt < scanAt && scanAt < loginAt && loginAt < pushAt, 'build, scan, then log in and push');
  t.is(String(push.with?.sbom), 'true');
  t.is(withValue(push, 'provenance'), 'mode=max');

  const [, installAt] = stepOf(job, using('sigstore/cosign-installer'), 'installing cosign');
  const [sign, signAt] = stepOf(job, (step) => /cosign sign .*\$\{IMAGE\}/.test(step.run ?? ''), 'signing the image');
  t.true(pushAt < installAt && installAt < signAt);
  t.is(sign.run?.trim(), 'cosign sign --yes "${IMAGE}@${DIGEST}"', 'by digest, never by tag');
  t.is(sign.env?.DIGEST, `\${{ steps.${push.id}.outputs.digest }}`);

  // Keyless signing needs the job's OIDC token; the job that runs the tests gets neither it nor the
  // registry's write permission.
  t.deepEqual(job.permissions, { contents: 'read', packages: 'write', 'id-token': 'write' });
  const testing = Object.entries(jobs).filter(([, other]) => runs(other, /\.ci\/run\b/));
  t.deepEqual(
    testing.map(([name]) => name),
    ['test'],
  );
  t.deepEqual(testing[0]![1].permissions, { contents: 'read' });
  t.deepEqual([job.needs].flat(), ['test']);
});

test('the published chart pins the image just pushed, and is signed by the digest helm push reports', (t) => {
  const job = release().jobs.release!;
  const [push] = stepOf(
    job,
    (step) => using('docker/build-push-action')(step) && String(step.with?.push) === 'true',
    'pushing the image',
  );
  const [, signImageAt] = stepOf(job, (step) => /cosign sign .*\$\{IMAGE\}/.test(step.run ?? ''), 'image signing');
  const [chart, chartAt] = stepOf(job, (step) => /\bhelm package\b/.test(step.run ?? ''), 'packaging the chart');
  t.true(signImageAt < chartAt, 'no chart names an image that is not signed');
  t.is(chart.env?.DIGEST, `\${{ steps.${push.id}.outputs.digest }}`);
  const script = chart.run!;
  const edit = script.indexOf('node tools/chart-digest.ts helm/sfd-sidecar/values.yaml "${DIGEST}"');
  t.true(edit >= 0 && edit < script.indexOf('helm package'), 'the digest is written before packaging');
  t.true(script.indexOf('helm show values "${chart}"') > script.indexOf('helm package'), 'and read back after');
  const [, nodeAt] = stepOf(job, using('actions/setup-node'), 'installing Node');
  t.is(withValue(job.steps[nodeAt]!, 'node-version'), '24', 'the Node that runs the tool as TypeScript');
  t.true(nodeAt < chartAt);

  const [publish, publishAt] = stepOf(job, (step) => /\bhelm push\b/.test(step.run ?? ''), 'pushing the chart');
  t.true(chartAt < publishAt);
  t.is(publish.env?.CHART, `\${{ steps.${chart.id}.outputs.chart }}`);
  const lines = publish.run!.trim().split('\n');
  t.true(lines.some((line) => /helm push "\$\{CHART\}" "\$\{CHARTS\}" 2>&1 \| tee "(\S+)"/.test(line)));
  t.true(lines.some((line) => line.includes("sed -n 's/^Digest: \\(sha256:[0-9a-f]\\{64\\}\\)$/\\1/p'")));
  t.true(lines.includes('test -n "${digest}"'), 'no digest, no signature: the step fails');
  t.is(lines.at(-1), 'cosign sign --yes "${CHARTS#oci://}/sfd-sidecar@${digest}"');
});

const DIGEST = `sha256:${'0123456789abcdef'.repeat(4)}`;
const EMPTY = `sha256:${'0'.repeat(64)}`;
const runsTypeScript = (process.features as { typescript?: unknown }).typescript !== undefined;

/** The lines of `after` that differ from `before`'s, which must have as many. */
function changedLines(before: string, after: string): string[] {
  const old = before.split('\n');
  const changed = after.split('\n');
  if (old.length !== changed.length) throw new Error(`${old.length} lines became ${changed.length}`);
  return changed.flatMap((line, index) => (line === old[index] ? [] : [`${index + 1}: ${line}`]));
}

// The chart before and after the injector's image gained a digest of its own. Decoys: a comment and a
// deeper key spelled `digest:`, and another top-level block with an image digest.
const SIDECAR_ONLY = [
  'image:',
  '  repository: ghcr.io/sfd-sidecar/sfd-sidecar',
  '  tag: ""',
  '#  digest: ""',
  'proxy:',
  '  image:',
  '    digest: ""',
  'sidecar:',
  '  extra:',
  '    digest: ""',
  '  image:',
  '    # -- The digest.',
  '    digest: ""',
  '    pullPolicy: IfNotPresent',
  '    nested:',
  '      digest: ""',
  '  mode: native',
  '',
].join('\n');
const BOTH = SIDECAR_ONLY.replace('#  digest: ""', '  # -- The injector\'s digest.\n  digest: ""');

test('the chart digest tool writes sidecar.image.digest, and image.digest where the chart has one', (t) => {
  const sidecarOnly = pinImageDigest(SIDECAR_ONLY, DIGEST);
  t.deepEqual(sidecarOnly.keys, ['sidecar.image.digest']);
  t.deepEqual(changedLines(SIDECAR_ONLY, sidecarOnly.values), [`13:     digest: "${DIGEST}"`]);

  const both = pinImageDigest(BOTH, DIGEST);
  t.deepEqual(both.keys, ['image.digest', 'sidecar.image.digest']);
  t.deepEqual(changedLines(BOTH, both.values), [`5:   digest: "${DIGEST}"`, `14:     digest: "${DIGEST}"`]);
  const parsed = parse(both.values) as { image: { digest: string }; sidecar: { image: { digest: string } } };
  t.is(parsed.image.digest, DIGEST);
  t.is(parsed.sidecar.image.digest, DIGEST);

  // Without the injector's image block at all, only the sidecar is pinned; the order of blocks is free.
  const noImage = 'sidecar:\n  image:\n    digest: ""\nimage:\n  tag: ""\n';
  t.deepEqual(pinImageDigest(noImage, DIGEST).keys, ['sidecar.image.digest']);
  t.deepEqual(pinImageDigest('sidecar:\n  image:\n    digest: ""\n', DIGEST).keys, ['sidecar.image.digest']);
  const later = pinImageDigest('sidecar:\n  image:\n    digest: ""\nimage:\n  digest: ""\n', DIGEST);
  t.deepEqual(changedLines('sidecar:\n  image:\n    digest: ""\nimage:\n  digest: ""\n', later.values), [
    `3:     digest: "${DIGEST}"`,
    `5:   digest: "${DIGEST}"`,
  ]);
  // A digest already written is replaced.
  t.deepEqual(changedLines(both.values, pinImageDigest(both.values, EMPTY).values).length, 2);
});

test('the chart digest tool refuses values without sidecar.image.digest, or no digest', (t) => {
  t.throws(() => pinImageDigest(BOTH, 'sha256:abc'), { message: /not an image digest/ });
  t.throws(() => pinImageDigest(BOTH, `${DIGEST} `), { message: /not an image digest/ });
  t.throws(() => pinImageDigest(BOTH, DIGEST.toUpperCase()), { message: /not an image digest/ });
  // The injector's digest alone is not enough: the sidecar is what every injected pod runs.
  t.throws(() => pinImageDigest('image:\n  digest: ""\n', DIGEST), { message: /no sidecar: block/ });
  t.throws(() => pinImageDigest('image:\n  digest: ""\nsidecar:\n  mode: native\n', DIGEST), {
    message: /no image: block in sidecar/,
  });
  t.throws(() => pinImageDigest('image:\n  digest: ""\nsidecar:\n  image:\n    tag: ""\n', DIGEST), {
    message: /no sidecar\.image\.digest line/,
  });
  // Layouts it does not read line by line: flow style, a digest at another depth.
  t.throws(() => pinImageDigest('sidecar: {image: {digest: ""}}\n', DIGEST), { message: /no sidecar: block/ });
  t.throws(() => pinImageDigest('sidecar:\n  image: {digest: ""}\n', DIGEST), { message: /no image: block/ });
  t.throws(() => pinImageDigest('sidecar:\n  image:\n     digest: ""\n', DIGEST), { message: /no sidecar\.image/ });
  t.throws(() => pinImageDigest('sidecar:\n  image:\n  digest: ""\n', DIGEST), { message: /no sidecar\.image/ });
});

test("the chart digest tool on the chart's own values.yaml: only the image digests change", (t) => {
  const values = read('helm/sfd-sidecar/values.yaml');
  const expected = parse(values) as { image?: { digest?: string }; sidecar: { image: { digest: string } } };
  t.is(expected.sidecar.image.digest, '', 'the repository keeps the digest empty');
  const pinned = pinImageDigest(values, DIGEST);
  const injectorHasDigest = expected.image !== undefined && 'digest' in expected.image;
  t.deepEqual(pinned.keys, [...(injectorHasDigest ? ['image.digest'] : []), 'sidecar.image.digest']);
  expected.sidecar.image.digest = DIGEST;
  if (injectorHasDigest) expected.image!.digest = DIGEST;
  t.deepEqual(parse(pinned.values), expected);
  t.is(changedLines(values, pinned.values).length, pinned.keys.length);
  const schema = JSON.parse(read('helm/sfd-sidecar/values.schema.json')) as object;
  const validate = new Ajv({ strict: false, allErrors: true, validateSchema: false }).compile(schema);
  // The chart's defaults leave settings a user must give; the digests add no finding of their own.
  const findings = (text: string) => (validate(parse(text)) ? [] : validate.errors);
  t.deepEqual(findings(pinned.values), findings(values));
});

test('the chart digest tool runs as the release runs it: Node 24, the .ts file, nothing installed', async (t) => {
  // Node 20 cannot run TypeScript: there the compiled file runs, the same code with its types erased.
  const script = join(REPO_ROOT, runsTypeScript ? 'tools/chart-digest.ts' : 'dist/tools/chart-digest.js');
  const dir = mkdtempSync(join(tmpdir(), 'sfd-chart-'));
  const values = join(dir, 'values.yaml');
  writeFileSync(values, BOTH);
  const run = await runProcess(process.execPath, [script, values, DIGEST], { cwd: dir });
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, `image.digest: ${DIGEST}\nsidecar.image.digest: ${DIGEST}\n`);
  t.is(readFileSync(values, 'utf8'), pinImageDigest(BOTH, DIGEST).values);
  const refused = await runProcess(process.execPath, [script, values, 'latest'], { cwd: dir });
  t.not(refused.code, 0);
  t.regex(refused.stderr, /not an image digest/);
  writeFileSync(values, 'sidecar:\n  image:\n    tag: ""\n');
  const missing = await runProcess(process.execPath, [script, values, DIGEST], { cwd: dir });
  t.not(missing.code, 0);
  t.regex(missing.stderr, /no sidecar\.image\.digest/);
  t.is(readFileSync(values, 'utf8'), 'sidecar:\n  image:\n    tag: ""\n', 'a refused file is left as it was');
  const usage = await runProcess(process.execPath, [script, values], { cwd: dir });
  t.is(usage.code, 2);
});

/** `node` for the packaging step: this Node running the tool (compiled on Node 20), or a stand-in script. */
const realNode = (): string =>
  runsTypeScript
    ? `#!/bin/sh\nexec "${process.execPath}" "$@"\n`
    : `#!/bin/sh\n[ "$1" = tools/chart-digest.ts ] || exit 97\nshift\n` +
      `exec "${process.execPath}" "${join(REPO_ROOT, 'dist/tools/chart-digest.js')}" "$@"\n`;

/**
 * Runs the release's packaging step as the runner does (bash -eo pipefail, its environment) on a copy of
 * the chart with the values given, with helm and the `node` given: its exit code, what it printed, and
 * the values of the chart it packaged (as helm shows them), when it packaged one.
 */
async function packageChart(values: string, node: string) {
  const [step] = stepOf(release().jobs.release!, (s) => /\bhelm package\b/.test(s.run ?? ''), 'packaging');
  const work = mkdtempSync(join(tmpdir(), 'sfd-release-'));
  cpSync(join(REPO_ROOT, 'helm/sfd-sidecar'), join(work, 'helm/sfd-sidecar'), { recursive: true });
  cpSync(join(REPO_ROOT, 'tools/chart-digest.ts'), join(work, 'tools/chart-digest.ts'));
  cpSync(join(REPO_ROOT, 'package.json'), join(work, 'package.json'));
  writeFileSync(join(work, 'helm/sfd-sidecar/values.yaml'), values);
  const bin = join(work, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'node'), node, { mode: 0o755 });
  symlinkSync(kubeTool('helm'), join(bin, 'helm'));
  const helmHomes = {
    HELM_CACHE_HOME: join(work, '.helm/cache'),
    HELM_CONFIG_HOME: join(work, '.helm/config'),
    HELM_DATA_HOME: join(work, '.helm/data'),
  };
  const run = await runProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
    cwd: work,
    env: {
      ...helmHomes,
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      DIGEST,
      VERSION,
      RUNNER_TEMP: work,
      GITHUB_OUTPUT: join(work, 'output'),
    },
  });
  let packaged: unknown;
  const chart = join(work, `chart/sfd-sidecar-${VERSION}.tgz`);
  if (run.code === 0) {
    const outputs = readFileSync(join(work, 'output'), 'utf8');
    if (outputs !== `chart=${chart}\n`) throw new Error(`the step's outputs: ${outputs}`);
    const shown = await runProcess(kubeTool('helm'), ['show', 'values', chart], { env: helmHomes });
    packaged = parse(shown.stdout);
  }
  return { code: run.code, printed: run.stdout + run.stderr, packaged };
}

/** The chart's values with a digest for the injector's own image, as the chart has it. */
function withInjectorDigest(values: string): string {
  if (pinImageDigest(values, DIGEST).keys.includes('image.digest')) return values;
  const tag = values.indexOf('\n  tag: ""\n', values.indexOf('\nimage:\n'));
  if (tag < 0) throw new Error('the injector image block has no tag line to add the digest after');
  return `${values.slice(0, tag)}\n  digest: ""${values.slice(tag)}`;
}

/** The chart's values without a digest for the injector's own image, as a chart of its own may have them. */
function withoutInjectorDigest(values: string): string {
  const block = values.indexOf('\nimage:\n');
  const digest = values.indexOf('\n  digest: ""\n', block);
  const following = /\n\S/.exec(values.slice(block + 1));
  const next = following ? block + 1 + following.index : -1;
  if (block < 0 || digest < 0 || (next >= 0 && digest > next)) return values;
  return `${values.slice(0, digest)}${values.slice(digest + '\n  digest: ""'.length)}`;
}

test('the release packages the chart with the digest and reads it back, on either layout of the values', async (t) => {
  t.timeout(120_000);
  const values = read('helm/sfd-sidecar/values.yaml');
  const layouts = [withInjectorDigest(values), withoutInjectorDigest(values)];
  for (const layout of layouts) {
    const run = await packageChart(layout, realNode());
    t.is(run.code, 0, run.printed);
    const packaged = run.packaged as { image: { digest?: string }; sidecar: { image: { digest: string } } };
    t.is(packaged.sidecar.image.digest, DIGEST);
    if ('digest' in (parse(layout) as { image: object }).image) t.is(packaged.image.digest, DIGEST);
  }
  t.not(layouts[0], layouts[1], 'one layout has the injector digest, the other not');
});

test("the release's read-back fails the step when a digest is not written", async (t) => {
  t.timeout(120_000);
  const values = withInjectorDigest(read('helm/sfd-sidecar/values.yaml'));
  const nothing = await packageChart(values, '#!/bin/sh\nexit 0\n');
  t.not(nothing.code, 0, 'no digest written');
  // A tool that pins the sidecar but leaves the injector's image on its tag.
  const sidecarOnly = await packageChart(values, `#!/bin/sh\nsed -i 's/^    digest: ""$/    digest: "'"$3"'"/' "$2"\n`);
  t.not(sidecarOnly.code, 0, 'the injector digest left empty');
  t.regex(sidecarOnly.printed, /leaves an image digest empty/);
});

test("docs/releasing.md verifies the image and the chart against the release workflow's own identity", (t) => {
  const page = read('docs/releasing.md');
  const commands = [...page.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((block) => block[1]!.replace(/\\\n\s*/g, '').split('\n'))
    .filter((line) => line.startsWith('cosign verify '))
    .map((line) => line.split(/\s+/).map((word) => word.replace(/^'(.*)'$/, '$1')));
  const flag = (words: string[], name: string): string | undefined =>
    words.includes(name) ? words[words.indexOf(name) + 1] : undefined;
  const owner = HOME_REPOSITORY.split('/')[0]!;
  t.deepEqual([...new Set(commands.map((words) => words[2]))].sort(), [
    `ghcr.io/${owner}/charts/sfd-sidecar:VERSION`,
    `${IMAGE_REPOSITORY}:VERSION`,
  ]);
  // GitHub's OIDC token names the workflow file at the ref that ran it: the release runs on v* tags.
  const identity = `https://github.com/${HOME_REPOSITORY}/.github/workflows/release.yml@refs/tags/vVERSION`;
  t.true(WORKFLOWS.includes('.github/workflows/release.yml'));
  for (const words of commands) {
    t.is(flag(words, '--certificate-oidc-issuer'), 'https://token.actions.githubusercontent.com');
    const exact = flag(words, '--certificate-identity');
    const pattern = flag(words, '--certificate-identity-regexp');
    t.true((exact === undefined) !== (pattern === undefined), words.join(' '));
    if (exact !== undefined) t.is(exact, identity);
    if (pattern !== undefined) {
      const matches = (id: string): boolean => new RegExp(pattern).test(id);
      t.true(matches(identity.replace('VERSION', '1.2.3')));
      t.false(matches(identity.replace('VERSION', '1.2.3').replace('release.yml', 'ci.yml')), 'another workflow');
      t.false(matches(identity.replace('refs/tags/vVERSION', 'refs/heads/main')), 'a branch');
      t.false(matches(identity.replace('VERSION', '1.2.3').replace(owner, 'someone-else')), 'a fork');
      t.false(matches(`${identity.replace('VERSION', '1.2.3')}x`), 'anchored');
    }
  }
  t.true(commands.some((words) => words.includes('--certificate-identity-regexp')));
  t.true(commands.filter((words) => words.includes('--certificate-identity')).length >= 2);
});

test('every workflow passes actionlint', async (t) => {
  t.true(WORKFLOWS.includes('.github/workflows/ci.yml') && WORKFLOWS.includes('.github/workflows/release.yml'));
  for (const path of WORKFLOWS) t.deepEqual(await lintWorkflow(read(path), path), [], path);
});

test('actionlint finds what is wrong in a workflow', async (t) => {
  const broken = read('.github/workflows/ci.yml')
    .replace('contents: read', 'contents: readable')
    .replace('runs-on: ubuntu-latest', 'runs-on: ubuntu-lastest');
  const findings = await lintWorkflow(broken, 'broken.yml');
  t.true(
    findings.some((finding) => finding.includes('readable')),
    findings.join('\n'),
  );
  t.true(
    findings.some((finding) => finding.includes('ubuntu-lastest')),
    findings.join('\n'),
  );
});

test('every action is pinned by commit, with its release named beside it', (t) => {
  let count = 0;
  for (const path of WORKFLOWS) {
    for (const job of Object.values(workflow(path).jobs))
      for (const step of job.steps.filter((s) => s.uses !== undefined)) {
        t.regex(step.uses!, /^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/, `${path}: ${step.uses}`);
        count += 1;
      }
    for (const line of read(path)
      .split('\n')
      .filter((l) => /^\s*(- )?uses:/.test(l)))
      t.regex(line, /uses: \S+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/, `${path}: ${line.trim()}`);
  }
  t.true(count >= 15, `${count} actions`);
});

test('renovate.json keeps npm packages, base image digests, action commits and helm current', (t) => {
  const renovate = JSON.parse(read('renovate.json')) as {
    extends: string[];
    enabledManagers: string[];
    packageRules: { matchManagers?: string[]; pinDigests?: boolean }[];
    customManagers: { managerFilePatterns: string[]; matchStrings: string[] }[];
  };
  t.deepEqual(renovate.enabledManagers.sort(), ['custom.regex', 'dockerfile', 'github-actions', 'npm']);
  for (const manager of ['dockerfile', 'github-actions'])
    t.true(
      renovate.packageRules.some((rule) => rule.matchManagers?.includes(manager) && rule.pinDigests === true),
      `${manager} keeps digests`,
    );
  t.true(renovate.extends.includes('helpers:pinGitHubActionDigests'));
  // The helm version each workflow installs is found by the custom manager.
  const [helm] = renovate.customManagers;
  const files = new RegExp(helm!.managerFilePatterns[0]!.slice(1, -1));
  const match = new RegExp(helm!.matchStrings[0]!, 'g');
  const versions = WORKFLOWS.filter((path) => files.test(path)).flatMap((path) =>
    [...read(path).matchAll(match)].map((m) => `${m.groups!.depName}@${m.groups!.currentValue}`),
  );
  const installs = WORKFLOWS.flatMap((path) =>
    Object.values(workflow(path).jobs).flatMap((job) => job.steps.filter(using('Azure/setup-helm'))),
  );
  t.is(versions.length, installs.length, 'every helm install is seen');
  t.is(new Set(versions).size, 1, `one helm version: ${[...new Set(versions)].join(', ')}`);
});

test('the pull-request workflow lints the chart with each CI values file and runs .ci/run, reading only', (t) => {
  const ci = workflow('.github/workflows/ci.yml');
  t.true('pull_request' in ci.on);
  t.deepEqual((ci.on as { push: { branches: string[] } }).push.branches, ['main']);
  t.deepEqual(ci.permissions, { contents: 'read' });
  for (const job of Object.values(ci.jobs)) t.is(job.permissions, undefined, 'no job asks for more');
  const job = Object.values(ci.jobs)[0]!;
  const [lint, lintAt] = stepOf(job, (step) => /\bhelm lint\b/.test(step.run ?? ''), 'linting the chart');
  t.regex(lint.run!, /for values in helm\/sfd-sidecar\/ci\/\*\.yaml; do/);
  t.regex(lint.run!, /helm lint --strict helm\/sfd-sidecar --values "\$\{values\}"/);
  t.true(readdirSync(join(REPO_ROOT, 'helm/sfd-sidecar/ci')).filter((f) => f.endsWith('.yaml')).length >= 5);
  const [, testAt] = stepOf(job, (step) => step.run?.trim() === 'bash .ci/run', 'running .ci/run');
  const [, helmAt] = stepOf(job, using('Azure/setup-helm'), 'installing helm');
  t.true(helmAt < lintAt && lintAt < testAt);
  // .ci/run raises only apt-get to root, so a runner's user keeps its npm cache.
  t.regex(read('.ci/run'), /"\$\{as_root\[@\]\}" apt-get update/);
  t.notRegex(read('.ci/run'), /sudo (npm|npx)/);
});

test('the release attaches the npm package as the tarball the docs install, from a job of its own', (t) => {
  const jobs = release().jobs;
  const uploading = Object.entries(jobs).filter(([, job]) => runs(job, /\bgh release upload\b/));
  t.is(uploading.length, 1, 'one job attaches the tarball');
  const [name, job] = uploading[0]!;

  // Only after the tests, the image and the chart pass, and the one job that may write to the repository.
  const needs = [job.needs ?? []].flat();
  const tested = Object.keys(jobs).filter((other) => runs(jobs[other]!, /\bnpm test\b|\.ci\/run\b/));
  t.true(tested.length > 0 && tested.every((other) => needs.includes(other)), `${name} needs ${tested.join(', ')}`);
  t.true(needs.includes('release'));
  t.deepEqual(
    Object.keys(jobs).filter((other) => jobs[other]!.permissions?.contents === 'write'),
    [name],
  );

  // Its checkout keeps no token, and only the upload step is given one.
  const checkout = job.steps.find(using('actions/checkout'));
  t.is(checkout?.with?.['persist-credentials'], false);
  const given = job.steps.filter((step) => JSON.stringify(step).includes('secrets.'));
  t.deepEqual(
    given.map((step) => runs({ steps: [step] }, /\bgh release upload\b/)),
    [true],
  );

  // npm pack names the tarball NAME-VERSION.tgz; the job installs it into an empty prefix and runs it
  // before uploading it under the tag's release, where the docs send users.
  t.true(runs(job, /npm pack --pack-destination "\$\{RUNNER_TEMP\}"/));
  t.true(runs(job, /tarball="\$\{RUNNER_TEMP\}\/sfd-sidecar-\$\{version\}\.tgz"/));
  t.true(runs(job, /npm install --global --prefix \S+ --omit=dev/));
  t.true(runs(job, /\/bin\/sfd-sidecar" --version/));
  t.true(runs(job, /releases\/download\/\$\{GITHUB_REF_NAME\}\/\$\{TARBALL##\*\/\}/));
  const documented = `https://github.com/${HOME_REPOSITORY}/releases/download/vVERSION/sfd-sidecar-VERSION.tgz`;
  for (const page of ['README.md', 'docs/deploying.md'])
    t.true(read(page).includes(`npm install -g ${documented}`), page);
  const packageName = (JSON.parse(read('package.json')) as { name: string }).name;
  t.is(packageName, 'sfd-sidecar', 'npm pack names the tarball after the package');
});

test('every checkout in the workflows keeps no token', (t) => {
  for (const path of WORKFLOWS)
    for (const job of Object.values(workflow(path).jobs))
      for (const step of job.steps.filter(using('actions/checkout')))
        t.is(step.with?.['persist-credentials'], false, path);
});

test('the tarball is signed keyless like the image, as a blob, and its bundle attached beside it', (t) => {
  const job = release().jobs.tarball!;
  t.deepEqual(job.permissions, { contents: 'write', 'id-token': 'write' }, 'the OIDC token signs');
  const [pack, packAt] = stepOf(job, (step) => /\bnpm pack\b/.test(step.run ?? ''), 'packing');
  const [, installAt] = stepOf(job, using('sigstore/cosign-installer'), 'installing cosign');
  const [sign, signAt] = stepOf(job, (step) => /\bcosign sign-blob\b/.test(step.run ?? ''), 'signing the tarball');
  const [upload, uploadAt] = stepOf(job, (step) => /\bgh release upload\b/.test(step.run ?? ''), 'uploading');
  t.true(packAt < installAt && installAt < signAt && signAt < uploadAt, 'pack, sign, then upload');
  t.is(sign.run?.trim(), 'cosign sign-blob --yes --bundle "${TARBALL}.sigstore.json" "${TARBALL}"');
  t.is(sign.env?.TARBALL, `\${{ steps.${pack.id}.outputs.tarball }}`);
  t.false(JSON.stringify(sign).includes('secrets.'), 'keyless: no key, no secret');
  t.regex(upload.run!, /gh release upload "\$\{GITHUB_REF_NAME\}" "\$\{TARBALL\}" "\$\{TARBALL\}\.sigstore\.json"/);
  const imageInstaller = release().jobs.release!.steps.find(using('sigstore/cosign-installer'))!;
  t.is(job.steps[installAt]!.uses, imageInstaller.uses, 'the cosign that signs the image');
});

test("docs/releasing.md verifies the tarball's blob signature against the release workflow's identity", (t) => {
  const page = read('docs/releasing.md');
  const lines = [...page.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
    block[1]!.replace(/\\\n\s*/g, '').split('\n'),
  );
  const verify = lines.filter((line) => line.startsWith('cosign verify-blob '));
  t.is(verify.length, 1);
  const words = verify[0]!.split(/\s+/);
  const flag = (name: string): string | undefined => words[words.indexOf(name) + 1];
  t.is(words[2], 'sfd-sidecar-VERSION.tgz');
  t.is(flag('--bundle'), 'sfd-sidecar-VERSION.tgz.sigstore.json', 'the name the release uploads');
  t.is(flag('--certificate-oidc-issuer'), 'https://token.actions.githubusercontent.com');
  t.is(
    flag('--certificate-identity'),
    `https://github.com/${HOME_REPOSITORY}/.github/workflows/release.yml@refs/tags/vVERSION`,
    'as the image is verified',
  );
  const downloaded = lines.find((line) => line.startsWith('curl '))!;
  t.true(downloaded.includes('/sfd-sidecar-VERSION.tgz"') && downloaded.includes('.tgz.sigstore.json"'));
  t.true(lines.indexOf(verify[0]!) < lines.indexOf('npm install -g ./sfd-sidecar-VERSION.tgz'), 'verify, then install');
});

test('a scheduled workflow scans the newest release image as the release does, reading only', (t) => {
  const scan = workflow('.github/workflows/scan.yml');
  t.deepEqual(Object.keys(scan.on).sort(), ['schedule', 'workflow_dispatch']);
  const [cron] = (scan.on.schedule as { cron: string }[]).map((s) => s.cron);
  t.regex(cron!, /^\d+ \d+ \* \* \*$/, 'daily');
  t.deepEqual(scan.permissions, { contents: 'read' });
  const jobs = Object.values(scan.jobs);
  t.is(jobs.length, 1);
  const job = jobs[0]!;
  t.is(job.permissions, undefined, 'no job asks for more');
  t.false(JSON.stringify(scan).includes('secrets.'), 'no step is given a token');
  const [find, findAt] = stepOf(job, (step) => /git tag --list/.test(step.run ?? ''), 'finding the release');
  t.regex(find.run!, /--sort=-version:refname/);
  t.regex(find.run!, /image=ghcr\.io\/\$\{GITHUB_REPOSITORY,,\}:\$\{tag#v\}/, 'the image the release pushed');
  const [trivy, trivyAt] = stepOf(job, using('aquasecurity/trivy-action'), 'the scan');
  t.true(findAt < trivyAt);
  t.is(withValue(trivy, 'image-ref'), `\${{ steps.${find.id}.outputs.image }}`);
  const releaseScan = release().jobs.release!.steps.find(using('aquasecurity/trivy-action'))!;
  t.is(trivy.uses, releaseScan.uses, 'the same Trivy as the release');
  for (const input of ['scanners', 'vuln-type', 'severity', 'ignore-unfixed', 'exit-code'])
    t.is(withValue(trivy, input), withValue(releaseScan, input), input);
  const checkout = job.steps.find(using('actions/checkout'))!;
  t.is(checkout.with?.['fetch-depth'], 0, 'with the tags');
});

test('SECURITY.md says how to report privately, which versions get fixes, what is in scope; README links it', (t) => {
  const policy = read('SECURITY.md');
  t.true(policy.includes(`https://github.com/${HOME_REPOSITORY}/security/advisories/new`), 'private reporting');
  t.deepEqual(
    [...policy.matchAll(/^## (.+)$/gm)].map((m) => m[1]),
    ['Reporting a vulnerability', 'Supported versions', 'Scope'],
  );
  t.regex(policy, /never in a public issue/);
  t.true(read('README.md').includes('[SECURITY.md](SECURITY.md)'));
});
