// The exposition a scraper gets: OpenMetrics, with exemplars, only when its Accept header asks for it;
// the text format unchanged otherwise, whatever OpenMetrics scrapes came before or run alongside; and an
// exemplar that is only ever a well-formed trace id.
import test from 'ava';
import { prefersOpenMetrics } from '../../../src/observability/exposition-format.js';
import { createMetrics } from '../../../src/observability/metrics.js';
import { createProxyObserver } from '../../../src/observability/proxy-observer.js';
import { parseExposition } from '../../helpers/exposition.js';
import { TEST_KEY_ID, TEST_SECRET } from '../../helpers/secrets.js';

/** What Prometheus 2 sends, and Prometheus 3. */
const PROMETHEUS_2 =
  'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,' +
  'text/plain;version=0.0.4;q=0.5,*/*;q=0.1';
const PROMETHEUS_3 =
  'application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,' +
  'application/openmetrics-text;version=0.0.1;q=0.5,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.4,' +
  'text/plain;version=0.0.4;q=0.3,*/*;q=0.2';
const TRACE_ID = '0123456789abcdef0123456789abcdef';
const labels = { profile: 'default', operation: 'getCustomer', method: 'GET' } as const;

test('OpenMetrics is chosen only when Accept names it at least as high as the text format', (t) => {
  const cases: [string | undefined, boolean][] = [
    [PROMETHEUS_2, true],
    [PROMETHEUS_3, true],
    ['application/openmetrics-text', true],
    ['Application/OpenMetrics-Text; Version="1.0.0"', true],
    ['text/plain;q=0.5, application/openmetrics-text;q=0.9', true],
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['text/plain', false],
    ['text/plain, application/openmetrics-text;q=0.5', false],
    ['*/*, application/openmetrics-text;q=0.5', false],
    ['application/openmetrics-text;q=0', false],
    ['application/openmetrics-text;q=abc', false],
    ['application/openmetrics-text;version=0.0.1', false],
    ['application/openmetrics-text;version=2.0.0', false],
    ['application/*', false],
  ];
  for (const [accept, expected] of cases) t.is(prefersOpenMetrics(accept), expected, String(accept));
});

test('an OpenMetrics scrape has exemplars, the text scrape none, and neither changes the other', async (t) => {
  const metrics = createMetrics();
  const observer = createProxyObserver(metrics, Date.now);
  observer.requestStarted();
  observer.requestFinished(labels, 200, 0.02, TRACE_ID);
  const families = (text: string): string[] => text.split('\n').filter((line) => line.startsWith('# TYPE'));
  const textBefore = await metrics.exposition(undefined);
  t.is(textBefore.contentType, 'text/plain; version=0.0.4; charset=utf-8');
  t.false(textBefore.body.includes(' # {'));

  // Concurrent scrapes in both formats: each is whole, in its own format.
  const [openMetrics, text] = await Promise.all([metrics.exposition(PROMETHEUS_2), metrics.exposition('*/*')]);
  t.is(openMetrics.contentType, 'application/openmetrics-text; version=1.0.0; charset=utf-8');
  t.true(openMetrics.body.endsWith('\n# EOF\n'));
  t.regex(openMetrics.body, /^# TYPE sfd_requests counter$/m);
  const exemplars = parseExposition(openMetrics.body).filter((sample) => sample.exemplar !== undefined);
  t.deepEqual(
    exemplars.map((sample) => [sample.name, sample.exemplar?.labels]),
    [
      ['sfd_requests_total', { trace_id: TRACE_ID }],
      ['sfd_request_duration_seconds_bucket', { trace_id: TRACE_ID }],
    ],
  );
  t.is(exemplars[1]!.labels.le, '0.025');
  t.is(exemplars[1]!.exemplar!.value, 0.02);

  t.deepEqual(families(text.body), families(textBefore.body));
  t.deepEqual(families((await metrics.exposition(undefined)).body), families(textBefore.body));
  t.regex(text.body, /^# TYPE sfd_requests_total counter$/m);
  t.regex(text.body, /^sfd_requests_total\{[^}]*\} 1$/m);
  t.false(text.body.includes(' # {'));
});

test('an exemplar never carries what is not a trace id, and keeps the last one that was', async (t) => {
  const metrics = createMetrics();
  const observer = createProxyObserver(metrics, Date.now);
  const answers = [
    TRACE_ID,
    '/v1.1/customer/12345?token=abc',
    `SFD ${TEST_KEY_ID}:${TEST_SECRET}`,
    TEST_SECRET,
    'x-sfd-trace-id: 0123456789abcdef',
    'f'.repeat(65),
    undefined,
  ];
  for (const traceId of answers) {
    observer.requestStarted();
    observer.requestFinished(labels, 200, 0.02, traceId);
  }
  const { body } = await metrics.exposition(PROMETHEUS_3);
  const exemplars = parseExposition(body).flatMap((sample) => (sample.exemplar ? [sample.exemplar] : []));
  t.is(exemplars.length, 2);
  for (const exemplar of exemplars) t.deepEqual(exemplar.labels, { trace_id: TRACE_ID });
  t.false(body.includes(TEST_SECRET));
  t.false(body.includes('/v1.1/customer'));
});

test('the injector negotiates too, with no per-request series and so no exemplar', async (t) => {
  const { body, contentType } = await createMetrics('injector').exposition(PROMETHEUS_2);
  t.regex(contentType, /^application\/openmetrics-text/);
  t.regex(body, /^# TYPE sfd_injector_reviews counter$/m);
  t.false(body.includes(' # {'));
});
