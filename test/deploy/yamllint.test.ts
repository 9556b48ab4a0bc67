// yamllint (Debian's package) passes on the project's YAML: deploy/ and the chart's values, scenarios
// and files (its templates are Go templates, checked by helm lint instead).
import test from 'ava';
import { requireTool, runTool } from '../helpers/tools.js';

test('yamllint passes on deploy/ and the chart', (t) => {
  const yamllint = requireTool('yamllint', 'yamllint');
  const targets = [
    'deploy',
    'helm/sfd-sidecar/Chart.yaml',
    'helm/sfd-sidecar/values.yaml',
    'helm/sfd-sidecar/ci',
    'helm/sfd-sidecar/files',
    '.yamllint',
  ];
  const result = runTool(yamllint, ['--strict', '-c', '.yamllint', ...targets]);
  t.is(result.code, 0, result.stdout + result.stderr);
});
