// The alerting rules load in Prometheus (promtool check rules), fire as their unit tests say
// (promtool test rules), and the PrometheusRule form holds exactly the same groups.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { anchorsOf } from '../helpers/markdown-anchors.js';
import { REPO_ROOT, requireTool, runTool } from '../helpers/tools.js';

const plainPath = 'deploy/prometheus/sfd-sidecar.rules.yaml';
const read = (path: string): unknown => parse(readFileSync(join(REPO_ROOT, path), 'utf8'));

test('promtool check rules accepts the rule file and both forms hold the same groups', (t) => {
  const promtool = requireTool('promtool', 'prometheus');
  const plain = runTool(promtool, ['check', 'rules', plainPath]);
  t.is(plain.code, 0, plain.stdout + plain.stderr);
  t.regex(plain.stdout, /SUCCESS: 15 rules found/);

  const crd = read('deploy/prometheus/prometheusrule.yaml') as {
    apiVersion: string;
    kind: string;
    spec: { groups: unknown };
  };
  t.is(crd.apiVersion, 'monitoring.coreos.com/v1');
  t.is(crd.kind, 'PrometheusRule');
  t.deepEqual(crd.spec.groups, (read(plainPath) as { groups: unknown }).groups);
  const extracted = join(mkdtempSync(join(tmpdir(), 'sfd-crd-')), 'rules.yaml');
  writeFileSync(extracted, JSON.stringify({ groups: crd.spec.groups }));
  t.is(runTool(promtool, ['check', 'rules', extracted]).code, 0);
});

test('promtool test rules: every alert fires on its pattern and not on healthy traffic', (t) => {
  const promtool = requireTool('promtool', 'prometheus');
  const result = runTool(promtool, ['test', 'rules', 'deploy/prometheus/tests/sfd-sidecar.rules.test.yaml']);
  t.is(result.code, 0, result.stdout + result.stderr);
  t.regex(result.stdout, /SUCCESS/);
});

test('the rules cover 401/400s, upstreams, skew, keys, readiness, lost data, operations, the injector', (t) => {
  const groups = (read(plainPath) as { groups: { rules: { alert: string }[] }[] }).groups;
  t.deepEqual(
    groups.flatMap((g) => g.rules.map((r) => r.alert)),
    [
      'SfdSidecarHigh401Rate',
      'SfdSidecarHigh400Rate',
      'SfdSidecarUpstream5xx',
      'SfdSidecarUpstreamUnavailable',
      'SfdSidecarUpstreamConnectionsExhausted',
      'SfdSidecarClockSkew',
      'SfdSidecarKeyExpiringSoon',
      'SfdSidecarKeystoreReloadFailing',
      'SfdSidecarNotReady',
      'SfdSidecarNotificationNotKept',
      'SfdSidecarLogLinesDropped',
      'SfdSidecarOperationRefused',
      'SfdSidecarOperationOutsideDryRun',
      'SfdInjectorDown',
      'SfdInjectorCertificateExpiring',
    ],
  );
});

const RUNBOOKS = 'https://github.com/sfd-sidecar/sfd-sidecar/blob/main/docs/operations.md#';

test("every alert's runbook_url leads to a heading of docs/operations.md that exists", (t) => {
  const anchors = anchorsOf(readFileSync(join(REPO_ROOT, 'docs/operations.md'), 'utf8'));
  const groups = (read(plainPath) as { groups: { rules: { alert: string; annotations: Record<string, string> }[] }[] })
    .groups;
  const rules = groups.flatMap((g) => g.rules);
  t.is(rules.length, 15);
  for (const rule of rules) {
    const url = rule.annotations.runbook_url ?? '';
    t.true(url.startsWith(RUNBOOKS), `${rule.alert}: ${url}`);
    t.true(anchors.has(url.slice(RUNBOOKS.length)), `${rule.alert}: no heading for ${url}`);
  }
  t.false(anchors.has('sfdsidecarnosuchalert'), 'the check finds a missing heading');
});
