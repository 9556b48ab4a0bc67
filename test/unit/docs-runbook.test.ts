// The rotation runbook names what an operator watches, in the words the code uses: the re-sign
// counter, the warn line's event, and the in-pod commands the distroless image allows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { METRIC_DEFINITIONS } from '../../src/observability/metric-definitions.js';
import { RESIGN_EVENT } from '../../src/proxy/resign-log.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

const runbook = (): string => {
  const page = readFileSync(join(REPO_ROOT, 'docs/keystore.md'), 'utf8');
  return page.slice(
    page.indexOf('## Rotation runbook'),
    page.indexOf('\n## ', page.indexOf('## Rotation runbook') + 1),
  );
};

test('the rotation runbook says how to see that the gateway refuses the current key', (t) => {
  const text = runbook().replace(/\s+/g, ' ');
  t.true(METRIC_DEFINITIONS.some((metric) => metric.name === 'sfd_resign_retries_total'));
  t.true(text.includes('sfd_resign_retries_total'));
  t.true(text.includes(RESIGN_EVENT));
  t.true(text.includes('kubectl exec POD -c sfd-sidecar -- /nodejs/bin/node /app/dist/src/main.js keys list'));
  t.true(text.includes('kubectl exec POD -c sfd-sidecar -- /nodejs/bin/node /app/dist/src/main.js doctor'));
});
