// Key rotations recorded from the real sidecar and emulator, written as promtool rule tests: a staged
// rotation by the runbook whose new key the gateway does not know yet (every first attempt refused, every
// caller answered 200) raises no alert; the same rotation gone wrong, where callers do get 400s or 401s,
// raises the alert for what they got.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { recordRotation, type RotationKey, type RotationStage } from '../helpers/rotation-recording.js';
import { metricNamesIn } from '../helpers/scrape-recording.js';
import { REPO_ROOT } from '../helpers/tools.js';

export const RULES_PATH = 'deploy/prometheus/sfd-sidecar.rules.yaml';
export const RECORDING_PATH = 'deploy/prometheus/tests/staged-rotation.rules.test.yaml';

/** The labels a PodMonitor's target gives the sidecar of one pod. */
const TARGET = { job: 'sfd-system/sfd-sidecar-sidecars', namespace: 'shop', pod: 'web-1', container: 'sfd-sidecar' };

const OLD: RotationKey = { id: 'AKROTATEOLD0001', secret: 'rotation-old-secret-5c1d' };
const NEW: RotationKey = { id: 'AKROTATENEW0002', secret: 'rotation-new-secret-8e4b' };
/** The new key as the portal holds it, where the store's copy of its secret was mistyped. */
const NEW_IN_PORTAL: RotationKey = { id: NEW.id, secret: 'rotation-new-secret-in-portal-0a7f' };
/** A key of another account: the only one the gateway knows once the old key is revoked too early. */
const OTHER_ACCOUNT: RotationKey = { id: 'AKOTHERACCOUNT3', secret: 'other-account-secret-2b9e' };

const BEFORE: RotationStage = { gateway: OLD, store: [OLD], scrapes: 6 };
const STAGED_STORE = [OLD, { ...NEW, startsSoon: true }];

interface Rule {
  alert: string;
  annotations: Record<string, string>;
}

const rules = (): Rule[] =>
  (parse(readFileSync(join(REPO_ROOT, RULES_PATH), 'utf8')) as { groups: { name: string; rules: Rule[] }[] }).groups
    .filter((g) => g.name === 'sfd-sidecar')
    .flatMap((g) => g.rules);

/** The alert as Prometheus sends it for the recorded pod: its labels and its annotations filled in. */
function firing(alert: string, labels: Record<string, string>) {
  const rule = rules().find((r) => r.alert === alert);
  if (!rule) throw new Error(`no rule ${alert}`);
  const values: Record<string, string> = { ...TARGET, ...labels };
  const fill = (text: string): string =>
    text.replace(/\{\{ \$labels\.(\w+) \}\}/g, (_, name: string) => values[name] ?? '');
  return {
    exp_labels: { severity: 'warning', namespace: TARGET.namespace, pod: TARGET.pod, ...labels },
    exp_annotations: Object.fromEntries(Object.entries(rule.annotations).map(([k, v]) => [k, fill(v)])),
  };
}

interface Scenario {
  readonly name: string;
  readonly stages: readonly RotationStage[];
  /** What every caller must have been answered in the last stage. */
  readonly answered: number;
  /** The alerts firing at the end of the last stage; none at the end of the others. */
  readonly firingAtEnd: readonly string[];
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name:
      'a staged rotation whose new key the gateway does not know yet: every first attempt is refused 400 ' +
      'AccessKeyId.Invalid, signed again with the old key, and every caller gets 200; no alert fires',
    stages: [BEFORE, { gateway: OLD, store: STAGED_STORE, scrapes: 24 }],
    answered: 200,
    firingAtEnd: [],
  },
  {
    name:
      'the old key revoked before the gateway knows the new one: callers get 400 AccessKeyId.Invalid and ' +
      'SfdSidecarHigh400Rate fires',
    stages: [
      BEFORE,
      { gateway: OLD, store: STAGED_STORE, scrapes: 4 },
      { gateway: OTHER_ACCOUNT, store: STAGED_STORE, scrapes: 20 },
    ],
    answered: 400,
    firingAtEnd: ['SfdSidecarHigh400Rate'],
  },
  {
    name:
      "the new key's secret mistyped in the store and the old key revoked: callers get 401 Signature.NotMatch " +
      'and SfdSidecarHigh401Rate fires',
    stages: [
      BEFORE,
      { gateway: OLD, store: STAGED_STORE, scrapes: 4 },
      { gateway: NEW_IN_PORTAL, store: STAGED_STORE, scrapes: 20 },
    ],
    answered: 401,
    firingAtEnd: ['SfdSidecarHigh401Rate'],
  },
];

export interface RecordedScenario {
  readonly test: Record<string, unknown>;
  /** The statuses callers got in the last stage. */
  readonly lastStage: readonly number[];
}

/** Records one scenario for real and writes it as a promtool test of the sidecar's alerts. */
export async function recordScenario(scenario: Scenario): Promise<RecordedScenario> {
  const all = rules();
  const families = metricNamesIn([
    ...(
      parse(readFileSync(join(REPO_ROOT, RULES_PATH), 'utf8')) as { groups: { rules: { expr: string }[] }[] }
    ).groups.flatMap((g) => g.rules.map((r) => r.expr)),
    'sfd_resign_retries_total',
  ]);
  const { recording, statuses } = await recordRotation(families, scenario.stages);
  const end = recording.scrapes() - 1;
  // The last scrape of each stage: the stages before the last one raise no alert.
  let scraped = 0;
  const evalTimes = scenario.stages.map((stage) => (scraped += stage.scrapes) - 1);
  const alertTests = evalTimes.flatMap((minute) =>
    all.map((rule) => ({
      eval_time: `${minute}m`,
      alertname: rule.alert,
      exp_alerts:
        minute === end && scenario.firingAtEnd.includes(rule.alert) ? [firing(rule.alert, { profile: 'default' })] : [],
    })),
  );
  return {
    lastStage: statuses.at(-1) ?? [],
    test: {
      name: scenario.name,
      interval: '1m',
      input_series: recording.series(TARGET),
      alert_rule_test: alertTests,
      promql_expr_test: [
        {
          // The gateway refused the first attempts for their key: the re-signs are in the recording.
          expr: 'sum(increase(sfd_resign_retries_total[5m])) > bool 0',
          eval_time: `${end}m`,
          exp_samples: [{ labels: '{}', value: 1 }],
        },
        {
          expr: `sum(increase(sfd_requests_total{status!="${scenario.answered}"}[5m])) or vector(0)`,
          eval_time: `${end}m`,
          exp_samples: [{ labels: '{}', value: 0 }],
        },
      ],
    },
  };
}

const HEADER = `# Recorded, not written: promtool tests over /metrics scraped from the real sidecar in front of the real
# emulator through a key rotation (test/deploy/rotation-scenarios.ts). Each scrape follows a batch of
# requests and stands one minute after the one before. Record again with
#   npm run build && node dist/test/deploy/record-rotation.js
# test/deploy/rotation-alerts.test.ts runs these and records afresh each time.
`;

/** The promtool test file of `recorded`, its rule file named relative to `rulesFrom`. */
export function promtoolTestFile(recorded: readonly RecordedScenario[], rulesFrom: string): string {
  const body = { rule_files: [rulesFrom], evaluation_interval: '1m', tests: recorded.map((r) => r.test) };
  return HEADER + stringify(body, { lineWidth: 116 });
}
