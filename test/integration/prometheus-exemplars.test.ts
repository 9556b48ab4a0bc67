// From a latency spike to the gateway's trace: a real Prometheus, with exemplar storage on, scrapes the
// real sidecar in front of the emulator, and its exemplar API, asked with the dashboard's own latency
// query, gives back the x-sfd-trace-id of a request the application made; the request counter gives
// back the sidecar's own trace id for an answer the sidecar gave itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { send, type Answer } from '../helpers/http.js';
import { startPrometheus, type PrometheusServer } from '../helpers/prometheus-server.js';
import { startStack } from '../helpers/stack.js';
import { eventually } from '../helpers/time.js';
import { REPO_ROOT } from '../helpers/tools.js';

interface ExemplarSeries {
  readonly seriesLabels: Record<string, string>;
  readonly exemplars: { labels: Record<string, string>; value: string; timestamp: number }[];
}

/** What Prometheus's exemplar API gives for a query over the last five minutes. */
async function queryExemplars(prometheus: PrometheusServer, promql: string): Promise<ExemplarSeries[]> {
  const end = Date.now() / 1000;
  const answer = await prometheus.api<{ status: string; error?: string; data: ExemplarSeries[] }>(
    `/api/v1/query_exemplars?query=${encodeURIComponent(promql)}&start=${end - 300}&end=${end + 60}`,
  );
  if (answer.status !== 'success') throw new Error(`query_exemplars failed: ${promql}: ${answer.error ?? ''}`);
  return answer.data;
}

const traceIdsOf = (series: readonly ExemplarSeries[]): string[] =>
  series.flatMap((s) => s.exemplars.map((e) => e.labels.trace_id ?? ''));

/** The expression of the dashboard's latency query that has exemplars turned on, with its variables filled in. */
function dashboardExemplarQuery(): string {
  const dashboard = JSON.parse(readFileSync(join(REPO_ROOT, 'deploy/grafana/sfd-sidecar-dashboard.json'), 'utf8')) as {
    panels: { title: string; targets: { expr: string; exemplar?: boolean }[] }[];
  };
  const queries = dashboard.panels
    .filter((panel) => panel.title === 'Latency through the sidecar')
    .flatMap((panel) => panel.targets.filter((target) => target.exemplar === true));
  if (queries.length !== 1) throw new Error(`${queries.length} latency queries ask for exemplars`);
  return queries[0]!.expr.replaceAll('$__rate_interval', '1m').replace(/\$(namespace|workload|pod|profile)\b/g, '.*');
}

test('Prometheus stores the trace ids of the answers as exemplars, and the dashboard query finds them', async (t) => {
  t.timeout(90_000);
  const { proxyUrl, sidecar } = await startStack(t, { sidecar: { maxBodyBytes: 64 } });
  const prometheus = await startPrometheus(t, [`127.0.0.1:${sidecar.adminAddress.port}`], {
    features: ['exemplar-storage'],
  });
  t.true(
    await eventually(async () => (await prometheus.query('up{job="sfd-sidecar"} == 1')).length === 1, 20_000),
    'target up',
  );

  const traceIdOf = (answer: Answer): string => String(answer.headers['x-sfd-trace-id']);
  const received: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    const answer = await send(`${proxyUrl}/v1.1/customer/12345`);
    t.is(answer.status, 200);
    received.push(traceIdOf(answer));
  }
  const refused = await send(`${proxyUrl}/upload`, { method: 'POST', body: 'z'.repeat(65) });
  t.is(refused.status, 413);
  const ownTraceId = traceIdOf(refused);
  const latest = received.at(-1)!;

  const latency = dashboardExemplarQuery();
  t.true(latency.includes('sfd_request_duration_seconds_bucket'), latency);
  t.true(
    await eventually(async () => traceIdsOf(await queryExemplars(prometheus, latency)).includes(latest), 20_000),
    'the latest request trace id is an exemplar of the latency query',
  );
  const latencyExemplars = await queryExemplars(prometheus, latency);
  t.true(
    traceIdsOf(latencyExemplars).every((id) => received.includes(id) || id === ownTraceId),
    JSON.stringify(latencyExemplars),
  );
  const exemplar = latencyExemplars.flatMap((s) => s.exemplars).find((e) => e.labels.trace_id === latest)!;
  t.deepEqual(Object.keys(exemplar.labels), ['trace_id']);
  t.true(Number(exemplar.value) > 0 && Number(exemplar.value) < 5, exemplar.value);

  t.true(
    await eventually(
      async () => traceIdsOf(await queryExemplars(prometheus, 'sfd_requests_total{status="413"}')).includes(ownTraceId),
      20_000,
    ),
    "the sidecar's own answer is linked to its own trace id",
  );
  // A scrape between two requests stores an earlier one too; the latest comes last.
  const counted = traceIdsOf(await queryExemplars(prometheus, 'sfd_requests_total{status="200"}'));
  t.is(counted.at(-1), latest);
  t.true(
    counted.every((id) => received.includes(id)),
    counted.join(),
  );
  // Prometheus took the OpenMetrics exposition: the series keep the names the text format gives them.
  t.true(await eventually(async () => Number((await prometheus.query('sum(sfd_requests_total)'))[0]?.value[1]) === 6));
});
