// A real Prometheus scrapes the admin listener while signed requests, 401s (the emulator switched to
// another shape) and 400s flow; the test reads counts and rates back through Prometheus's HTTP API,
// checks that the alerting rules loaded, that every dashboard and rule expression parses, and that
// `promtool check metrics` accepts the exposition. A busy sidecar's exposition fits the chart's sample
// limit, which Prometheus would otherwise refuse whole.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { parse } from 'yaml';
import { GATEWAY_ERRORS } from '../../src/emulator/gateway-errors.js';
import { createKeyRing } from '../../src/keys/key-ring.js';
import type { Profile } from '../../src/keys/key-store.js';
import { createAccessKey } from '../../src/signing/access-key.js';
import { send } from '../helpers/http.js';
import { eventually } from '../helpers/time.js';
import { startPrometheus } from '../helpers/prometheus-server.js';
import { startStack, startTestSidecar, toUpstream } from '../helpers/stack.js';
import { REPO_ROOT, requireTool, runTool } from '../helpers/tools.js';

test(
  'Prometheus sees the counts and rates of mixed ' + 'traffic, loads the rules and parses every ' + 'expression',
  async (t) => {
    t.timeout(90_000);
    const { proxyUrl, adminUrl, sidecar, emulator } = await startStack(t, { sidecar: { maxBodyBytes: 64 } });
    const prometheus = await startPrometheus(t, [`127.0.0.1:${sidecar.adminAddress.port}`]);
    t.true(
      await eventually(async () => (await prometheus.query('up{job="sfd-sidecar"} == 1')).length === 1, 20_000),
      'target up',
    );

    const total = async (): Promise<number> =>
      Number((await prometheus.query('sum(sfd_requests_total)'))[0]?.value[1] ?? 0);
    const exposed = async (): Promise<number> =>
      [...(await send(`${adminUrl}/metrics`)).body.toString().matchAll(/^sfd_requests_total\{[^}]*\} (\d+)$/gm)]
        .map((m) => Number(m[1]))
        .reduce((a, b) => a + b, 0);
    // Four rounds, each scraped before the next starts, so that Prometheus sees every counter rise.
    const goodForm = { ...emulator.state.form };
    for (let round = 0; round < 4; round += 1) {
      for (let i = 0; i < 5; i += 1) t.is((await send(`${proxyUrl}/v1.1/customer/12345`)).status, 200);
      t.is(
        (
          await send(`${proxyUrl}/cdn/v1.0/services/1001/rateLimit`, {
            method: 'POST',
            body: '{"timeWindow":5,"requestLimit":9}',
          })
        ).status,
        200,
      );
      t.is((await send(`${proxyUrl}/cdn/v1.0/services/2001/rateLimit`)).status, 400);
      if (round === 0)
        for (let i = 0; i < 2; i += 1)
          t.is((await send(`${proxyUrl}/upload`, { method: 'POST', body: 'z'.repeat(65) })).status, 413);
      emulator.state.form = { ...goodForm, shape: 'no-extra-lf' };
      for (let i = 0; i < 2; i += 1) t.is((await send(`${proxyUrl}/v1.1/customer/12345`)).status, 401);
      emulator.state.form = goodForm;
      const sent = await exposed();
      t.true(await eventually(async () => (await total()) === sent, 20_000), `round ${round} scraped`);
    }

    t.true(await eventually(async () => (await total()) === 38, 20_000), 'all 38 requests scraped');

    const byStatus: Record<string, number> = Object.fromEntries(
      (await prometheus.query('sum by (status) (sfd_requests_total)')).map((r): [string, number] => [
        r.metric.status ?? '',
        Number(r.value[1]),
      ]),
    );
    t.deepEqual(byStatus, { '200': 24, '400': 4, '401': 8, '413': 2 });
    const codes = Object.fromEntries(
      (await prometheus.query('sum by (status, error_code) (sfd_upstream_errors_total)')).map((r): [string, number] => [
        `${r.metric.status} ${r.metric.error_code}`,
        Number(r.value[1]),
      ]),
    );
    t.deepEqual(codes, { '400 ServiceId.IdPermission': 4, '401 Signature.NotMatch': 8 });
    t.deepEqual(
      (await prometheus.query('sfd_sidecar_errors_total')).map((r) => [r.metric.code, r.value[1]]),
      [['Sidecar.BodyTooLarge', '2']],
    );
    const operations = (await prometheus.query('sum by (operation) (sfd_requests_total)'))
      .map((r) => r.metric.operation)
      .sort();
    t.deepEqual(operations, ['getCustomer', 'getRateLimit', 'other', 'upsertRateLimit']);
    t.is(Number((await prometheus.query('sum(sfd_request_duration_seconds_count)'))[0]!.value[1]), 38);
    for (const status of ['200', '400', '401']) {
      const rate = Number(
        (await prometheus.query(`sum(rate(sfd_requests_total{status="${status}"}[30s]))`))[0]?.value[1] ?? 0,
      );
      t.true(rate > 0, `rate of ${status}`);
    }
    const p99 = Number(
      (
        await prometheus.query('histogram_quantile(0.99, sum by (le) (rate(sfd_request_duration_seconds_bucket[1m])))')
      )[0]!.value[1],
    );
    t.true(p99 > 0 && p99 < 5, `p99 ${p99}`);
    t.is((await prometheus.query('sfd_ready'))[0]!.value[1], '1');
    t.is((await prometheus.query('sfd_key_current'))[0]!.metric.access_key_id, 'AKTEST000000001');
    t.true((await prometheus.query('sfd_process_resident_memory_bytes')).length === 1);

    const rules = await prometheus.api<{ data: { groups: { rules: { name: string; health: string }[] }[] } }>(
      '/api/v1/rules',
    );
    const loaded = rules.data.groups.flatMap((g) => g.rules);
    const inFile = (
      parse(readFileSync(join(REPO_ROOT, 'deploy/prometheus/sfd-sidecar.rules.yaml'), 'utf8')) as {
        groups: { rules: unknown[] }[];
      }
    ).groups.flatMap((g) => g.rules);
    t.is(loaded.length, inFile.length, 'every rule of the file is loaded');
    t.true(
      loaded.every((rule) => rule.health !== 'err'),
      JSON.stringify(loaded),
    );

    for (const expression of [...dashboardExpressions(), ...ruleExpressions()]) {
      const answer = await prometheus.queryRaw(expression);
      t.is(answer.status, 'success', `${expression}: ${answer.error ?? ''}`);
    }

    const promtool = requireTool('promtool', 'prometheus');
    const exposition = (await send(`${adminUrl}/metrics`)).body.toString();
    const lint = runTool(promtool, ['check', 'metrics'], exposition);
    t.is(lint.code, 0, lint.stdout + lint.stderr);
  },
);

/** Every PromQL expression of the Grafana dashboard, with its variables filled in. */
function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(readFileSync(join(REPO_ROOT, 'deploy/grafana/sfd-sidecar-dashboard.json'), 'utf8')) as {
    panels: { targets: { expr: string }[] }[];
  };
  const expressions = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
  if (expressions.length < 10) throw new Error('the dashboard lost its panels');
  return expressions.map((e) =>
    e.replaceAll('$__rate_interval', '1m').replace(/\$(namespace|workload|pod|profile)\b/g, '.*'),
  );
}

function ruleExpressions(): string[] {
  const rules = parse(readFileSync(join(REPO_ROOT, 'deploy/prometheus/sfd-sidecar.rules.yaml'), 'utf8')) as {
    groups: { rules: { expr: string }[] }[];
  };
  return rules.groups.flatMap((g) => g.rules.map((r) => r.expr));
}

test(
  "the chart's sample limit holds a sidecar busy with ten profiles: every route, method and status " +
    'answered for each',
  async (t) => {
    t.timeout(120_000);
    const values = parse(readFileSync(join(REPO_ROOT, 'helm/sfd-sidecar/values.yaml'), 'utf8')) as {
      metrics: { podMonitor: { sampleLimit: number } };
    };
    const exposition = await busySidecarExposition(t, 10);
    const labelValues = (label: string): string[] => {
      const pattern = new RegExp(`^sfd_requests_total\\{[^}]*${label}="([^"]+)"`, 'gm');
      return [...new Set([...exposition.matchAll(pattern)].map((m) => m[1]!))].sort();
    };
    t.deepEqual(labelValues('status'), '200 201 204 400 401 403 404 409 413 429 500 502 503 504'.split(' '));
    t.is(labelValues('profile').length, 10 + 1, 'ten profiles, and none for the refused one');
    // Prometheus counts a scrape's samples: every line but the comments.
    const samples = exposition.split('\n').filter((line) => line !== '' && !line.startsWith('#')).length;
    t.true(samples <= values.metrics.podMonitor.sampleLimit, `${samples} samples`);
    t.log(`${samples} samples of ${values.metrics.podMonitor.sampleLimit}`);
  },
);

/**
 * The exposition of a sidecar that signs for `profiles` profiles, each of which has answered every
 * operation with every method its route takes (every method for `other`), with successes, every gateway
 * error with its documented status and code, codes it does not document, an upstream that hangs up, and a
 * body too large; and that has refused a profile it may not use. The gateway answers with the status and
 * code each request asks for.
 */
async function busySidecarExposition(t: ExecutionContext, profiles: number): Promise<string> {
  const gateway = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.headers['x-answer-close'] !== undefined) return request.socket.destroy();
      const status = Number(request.headers['x-answer-status'] ?? 200);
      const code = request.headers['x-answer-code'];
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(status === 204 ? undefined : JSON.stringify(code === undefined ? {} : { code }));
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  t.teardown(() => gateway.close());
  const names = Array.from({ length: profiles }, (_, i) => `profile-${i}`);
  const store = new Map(
    names.map((name, i): [string, Profile] => [
      name,
      {
        name,
        keys: [{ key: createAccessKey(`AKBUSY${i}`, `busy-secret-${i}-0123456789`), notBefore: null, notAfter: null }],
        upstream: null,
        signing: {},
        operations: null,
      },
    ]),
  );
  const { proxyUrl, adminUrl } = await startTestSidecar(t, {
    defaultUpstream: toUpstream(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}`),
    ring: createKeyRing({ profiles: store }, Date.now()),
    defaultProfile: names[0]!,
    profileHeader: 'x-sfd-profile',
    allowedProfiles: new Set(names),
    maxBodyBytes: 1024,
  });
  const routes: [string, string][] = [
    ...['GET', 'HEAD'].flatMap((method): [string, string][] => [
      [method, '/v1.1/customer/12345'],
      [method, '/v1.2/customerChildren/12345'],
      [method, '/cdn/v1.0/services/1001/rateLimit'],
    ]),
    ['DELETE', '/cdn/v1.0/services/1001/rateLimit'],
    ['POST', '/cdn/v1.0/services/1001/rateLimit'],
    ...['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PURGE'].map((m): [string, string] => [m, '/x']),
  ];
  const answers: Record<string, string>[] = [
    ...['200', '201', '204', '404', '409', '429', '500', '502', '503', '504'].map((status) => ({
      'x-answer-status': status,
    })),
    ...Object.values(GATEWAY_ERRORS).map((error) => ({
      'x-answer-status': String(error.status),
      'x-answer-code': error.code,
    })),
    ...['400', '401', '403'].map((status) => ({ 'x-answer-status': status, 'x-answer-code': 'Undocumented.Code' })),
    { 'x-answer-status': '400' },
    { 'x-answer-close': '1' },
  ];
  for (const profile of names)
    for (const [method, path] of routes) {
      const body = ['POST', 'PUT', 'PATCH'].includes(method) ? '{"timeWindow":5,"requestLimit":9}' : undefined;
      const headers = { 'x-sfd-profile': profile };
      await Promise.all([
        ...answers.map((answer) => send(`${proxyUrl}${path}`, { method, headers: { ...headers, ...answer }, body })),
        ...(body === undefined ? [] : [send(`${proxyUrl}${path}`, { method, headers, body: 'z'.repeat(2048) })]),
      ]);
    }
  await send(`${proxyUrl}/x`, { headers: { 'x-sfd-profile': 'not-allowed' } });
  return (await send(`${adminUrl}/metrics`)).body.toString();
}
