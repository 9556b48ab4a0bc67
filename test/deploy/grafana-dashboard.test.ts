// The Grafana dashboard is a dashboard by Grafana's own schema (the types @grafana/schema generates from
// it, checked by the TypeScript compiler), every query parses in promtool, and it holds what an operator
// looks for: a namespace, workload and pod to choose, a description on each panel, the 401 panel's
// exemplars, and the injector's decisions and latency.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import ts from 'typescript';
import { stringify } from 'yaml';
import { METRIC_DEFINITIONS } from '../../src/observability/metric-definitions.js';
import { REPO_ROOT, requireTool, runTool } from '../helpers/tools.js';

interface Target {
  readonly expr: string;
  readonly exemplar?: boolean;
}
interface Panel {
  readonly title: string;
  readonly description?: string;
  readonly targets: readonly Target[];
}
interface Dashboard {
  readonly panels: readonly Panel[];
  readonly templating: { list: { name: string; query?: { query: string }; regex?: string }[] };
}

const DASHBOARD_PATH = 'deploy/grafana/sfd-sidecar-dashboard.json';
const text = (): string => readFileSync(join(REPO_ROOT, DASHBOARD_PATH), 'utf8');
const dashboard = (): Dashboard => JSON.parse(text()) as Dashboard;

/** The compiler's errors for `source`, a module compiled as if it stood at the repository's root. */
function typeErrors(source: string): string[] {
  const file = join(REPO_ROOT, 'dashboard-schema-check.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const base = ts.createCompilerHost(options);
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : base.getSourceFile(name, language, ...rest);
  host.fileExists = (name) => name === file || base.fileExists(name);
  host.readFile = (name) => (name === file ? source : base.readFile(name));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const schemaCheck = (json: string): string =>
  `import type { Dashboard } from '@grafana/schema';\nexport const dashboard = ${json.trim()} satisfies Dashboard;\n`;

test("the dashboard has the shape of Grafana's dashboard schema", (t) => {
  t.deepEqual(typeErrors(schemaCheck(text())), []);
});

test('the schema check finds a panel Grafana would not read', (t) => {
  const broken = JSON.parse(text()) as { panels: Record<string, unknown>[] };
  broken.panels[0]!.gridPos = { h: 'eight', w: 12, x: 0, y: 0 };
  broken.panels[1]!.titel = 'a misspelt key';
  const errors = typeErrors(schemaCheck(JSON.stringify(broken)));
  t.true(
    errors.some((e) => e.includes("'string' is not assignable to type 'number'")),
    errors.join('\n'),
  );
  t.true(
    errors.some((e) => e.includes('titel')),
    errors.join('\n'),
  );
});

/** Every query of the dashboard with its variables filled in as "any value". */
const expressions = (): string[] =>
  dashboard()
    .panels.flatMap((p) => p.targets.map((target) => target.expr))
    .map((e) => e.replaceAll('$__rate_interval', '5m').replace(/\$(namespace|workload|pod|profile)\b/g, '.*'));

test('promtool parses every query of the dashboard', (t) => {
  const promtool = requireTool('promtool', 'prometheus');
  const rules = expressions().map((expr, i) => ({ record: `sfd:dashboard_query_${i}`, expr }));
  t.true(rules.length >= 20, `${rules.length} queries`);
  const file = join(mkdtempSync(join(tmpdir(), 'sfd-dashboard-')), 'queries.rules.yaml');
  writeFileSync(file, stringify({ groups: [{ name: 'dashboard', rules }] }));
  const result = runTool(promtool, ['check', 'rules', file]);
  t.is(result.code, 0, result.stdout + result.stderr);
  t.regex(result.stdout, new RegExp(`SUCCESS: ${rules.length} rules found`));

  writeFileSync(file, stringify({ groups: [{ name: 'dashboard', rules: [{ record: 'x', expr: 'sum by (le (x)' }] }] }));
  t.not(runTool(promtool, ['check', 'rules', file]).code, 0, 'promtool refuses a query that does not parse');
});

test('the sidecar panels follow the namespace, workload and pod chosen; the pod list follows the workload', (t) => {
  const variables = dashboard().templating.list;
  t.deepEqual(
    variables.map((v) => v.name),
    ['datasource', 'namespace', 'workload', 'pod', 'profile'],
  );
  const pod = variables.find((v) => v.name === 'pod')!;
  t.regex(pod.query!.query, /namespace=~"\$namespace",pod=~"\(\?:\$workload\)-\.\+"/);
  const workload = variables.find((v) => v.name === 'workload')!;
  const names = new RegExp(workload.regex!.slice(1, -1));
  // Pod names as a Deployment's ReplicaSet, a StatefulSet and a DaemonSet give them.
  t.is(names.exec('checkout-api-7d9f8c6b5d-x2x4k')?.[1], 'checkout-api');
  t.is(names.exec('ledger-0')?.[1], 'ledger');
  t.is(names.exec('node-agent-b7x9q')?.[1], 'node-agent');

  const sidecarQueries = dashboard()
    .panels.flatMap((p) => p.targets)
    .filter((target) => !target.expr.includes('sfd_injector_'));
  for (const { expr } of sidecarQueries) {
    for (const selector of expr.match(/sfd_[a-z_]+\{[^}]*\}/g) ?? [])
      t.true(selector.includes('namespace=~"$namespace",pod=~"$pod"'), selector);
    t.false(/sfd_[a-z_]+(?![a-z_{])/.test(expr.replace(/by \([^)]*\)|on \([^)]*\)/g, '')), `unfiltered: ${expr}`);
  }
});

test('each panel says what it shows; the 401 panel links its points to trace ids', (t) => {
  const panels = dashboard().panels;
  for (const panel of panels) t.true((panel.description ?? '').length > 20, panel.title);
  const refused = panels.find((p) => p.title.startsWith('401'))!;
  const withExemplars = refused.targets.filter((target) => target.exemplar === true);
  t.is(withExemplars.length, 1);
  t.regex(withExemplars[0]!.expr, /^sum by \(profile\) \(rate\(sfd_requests_total\{status="401",/);
  const requests = METRIC_DEFINITIONS.find((m) => m.name === 'sfd_requests_total')!;
  t.true('exemplar' in requests, 'the counter the panel reads carries exemplars');
});

test("the injector's decisions and review latency have their panels", (t) => {
  const injectorMetrics = METRIC_DEFINITIONS.filter(
    (m) => m.for.includes('injector') && m.name.startsWith('sfd_injector_'),
  );
  const queries = dashboard().panels.flatMap((p) => p.targets.map((target) => target.expr));
  for (const name of ['sfd_injector_decisions_total', 'sfd_injector_review_duration_seconds']) {
    t.true(
      injectorMetrics.some((m) => m.name === name),
      `${name} is a metric of the injector`,
    );
    t.true(
      queries.some((q) => q.includes(name)),
      `a panel reads ${name}`,
    );
  }
});
