// The sidecar's alerts judge what callers were answered, not what the gateway answered each attempt: over
// /metrics recorded from the real sidecar and emulator through a key rotation, a staged rotation whose
// first attempts are all refused and signed again raises no alert, and one whose callers get 400s or 401s
// raises the alert for them. The committed recording runs as it is, and each run records afresh.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT, requireTool, runTool } from '../helpers/tools.js';
import { promtoolTestFile, RECORDING_PATH, recordScenario, RULES_PATH, SCENARIOS } from './rotation-scenarios.js';

test('promtool test rules passes on the committed recording of the rotations', (t) => {
  const promtool = requireTool('promtool', 'prometheus');
  const result = runTool(promtool, ['test', 'rules', RECORDING_PATH]);
  t.is(result.code, 0, result.stdout + result.stderr);
});

for (const scenario of SCENARIOS) {
  test(`recorded now: ${scenario.name}`, async (t) => {
    const promtool = requireTool('promtool', 'prometheus');
    const recorded = await recordScenario(scenario);
    t.true(recorded.lastStage.length > 0);
    t.deepEqual(
      recorded.lastStage.filter((status) => status !== scenario.answered),
      [],
      `every caller was answered ${scenario.answered}`,
    );
    const file = join(mkdtempSync(join(tmpdir(), 'sfd-rotation-test-')), 'rotation.test.yaml');
    writeFileSync(file, promtoolTestFile([recorded], join(REPO_ROOT, RULES_PATH)));
    const result = runTool(promtool, ['test', 'rules', file]);
    t.is(result.code, 0, result.stdout + result.stderr);
  });
}
