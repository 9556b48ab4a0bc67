// A real Prometheus server on loopback for one test: scrapes the given targets every second with the
// project's alerting rules loaded, and answers PromQL over its HTTP API.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { freePort } from '../../bench/net-utils.js';
import { REPO_ROOT, requireTool } from './tools.js';
import { eventually } from './time.js';

export interface PrometheusServer {
  readonly url: string;
  /** Instant query; resolves with the result vector. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** Raw API answer for a query, for checking that an expression parses. */
  queryRaw(promql: string): Promise<{ status: string; error?: string }>;
  api<T>(path: string): Promise<T>;
}

export interface PrometheusOptions {
  /** Feature flags to enable (`--enable-feature`), such as `exemplar-storage`. */
  readonly features?: readonly string[];
}

export async function startPrometheus(
  t: ExecutionContext,
  targets: readonly string[],
  options: PrometheusOptions = {},
): Promise<PrometheusServer> {
  const binary = requireTool('prometheus', 'prometheus');
  const dir = mkdtempSync(join(tmpdir(), 'sfd-prometheus-'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'rule_files:',
      `  - ${join(REPO_ROOT, 'deploy/prometheus/sfd-sidecar.rules.yaml')}`,
      'scrape_configs:',
      '  - job_name: sfd-sidecar',
      '    static_configs:',
      `      - targets: [${targets.map((target) => `'${target}'`).join(', ')}]`,
      '',
    ].join('\n'),
  );
  const child = spawn(
    binary,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
      ...(options.features ?? []).map((feature) => `--enable-feature=${feature}`),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  t.teardown(() => {
    child.kill('SIGKILL');
  });
  const url = `http://127.0.0.1:${port}`;
  const ready = async (): Promise<boolean> => {
    if (child.exitCode !== null) return true;
    try {
      return (await fetch(`${url}/-/ready`)).ok;
    } catch {
      return false; // not listening yet
    }
  };
  if (!(await eventually(ready, 30_000)) || child.exitCode !== null)
    throw new Error(`Prometheus did not start: ${stderr}`);
  const api = async <T>(path: string): Promise<T> => (await (await fetch(`${url}${path}`)).json()) as T;
  const queryRaw = (promql: string) =>
    api<{ status: string; error?: string }>(`/api/v1/query?query=${encodeURIComponent(promql)}`);
  return {
    url,
    api,
    queryRaw,
    async query(promql) {
      const answer = await api<{
        status: string;
        error?: string;
        data: { result: { metric: Record<string, string>; value: [number, string] }[] };
      }>(`/api/v1/query?query=${encodeURIComponent(promql)}`);
      if (answer.status !== 'success') throw new Error(`query failed: ${promql}: ${answer.error ?? ''}`);
      return answer.data.result;
    },
  };
}
