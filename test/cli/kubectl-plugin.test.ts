// `kubectl sfd ...` as kubectl runs its plugins: the real kubectl finds `kubectl-sfd` on PATH (the
// package's second bin entry, here a link to the same program) and runs it with the words after `sfd`;
// what the command prints and its exit code come through unchanged.
import { chmodSync, mkdtempSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import test from 'ava';
import { MAIN, runProcess } from '../helpers/cli-process.js';
import { kubeTool } from '../helpers/k8s-tools.js';
import { VERSION } from '../../src/version.js';

/** A PATH whose first directory holds `kubectl-sfd`, linked to the built program, as npm links its bins. */
function pluginPath(): { env: Record<string, string> } {
  const bin = mkdtempSync(join(tmpdir(), 'sfd-plugin-'));
  // npm makes a bin's target executable when it installs it; the build leaves that to npm.
  chmodSync(MAIN, statSync(MAIN).mode | 0o111);
  symlinkSync(MAIN, join(bin, 'kubectl-sfd'));
  const path = [bin, dirname(process.execPath), dirname(kubeTool('kubectl')), process.env.PATH ?? ''].join(delimiter);
  return { env: { PATH: path, KUBECONFIG: join(bin, 'no-kubeconfig') } };
}

test('kubectl lists sfd among its plugins and runs it with the words after sfd', async (t) => {
  const options = pluginPath();
  const kubectl = kubeTool('kubectl');
  const plugins = await runProcess(kubectl, ['plugin', 'list'], options);
  t.regex(plugins.stdout, /kubectl-sfd$/m, plugins.stderr);
  const version = await runProcess(kubectl, ['sfd', '--version'], options);
  t.deepEqual(version, { code: 0, stdout: `sfd-sidecar ${VERSION}\n`, stderr: '' });
  const help = await runProcess(kubectl, ['sfd', 'check', '--help'], options);
  t.is(help.code, 0);
  t.regex(help.stdout, /^Usage: sfd-sidecar check /);
});

test('kubectl sfd check and audit keep their exit codes: 2 for nothing to read, 1 for a finding', async (t) => {
  const options = pluginPath();
  const kubectl = kubeTool('kubectl');
  const empty = await runProcess(kubectl, ['sfd', 'check', '-'], { ...options, input: '' });
  t.is(empty.code, 2);
  t.regex(empty.stderr, /^sfd-sidecar check: nothing to check: standard input holds no /);
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'shop', labels: { 'sfd-sidecar.io/inject': 'true' } },
    spec: { containers: [{ name: 'web', image: 'example/web:1' }] },
  };
  const audit = await runProcess(kubectl, ['sfd', 'audit', '-o', 'json', '-'], {
    ...options,
    input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [pod] }),
  });
  t.is(audit.code, 1, audit.stderr);
  t.like(JSON.parse(audit.stdout), {
    findings: [{ kind: 'runs-without-sidecar', object: 'Pod/web in namespace shop' }],
  });
});
