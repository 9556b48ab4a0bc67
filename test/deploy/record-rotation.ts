// Records the rotation scenarios from the real sidecar and emulator into the promtool test file beside the
// rule file. Run after `npm run build`: node dist/test/deploy/record-rotation.js
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/tools.js';
import { promtoolTestFile, RECORDING_PATH, recordScenario, SCENARIOS } from './rotation-scenarios.js';

const recorded = [];
for (const scenario of SCENARIOS) recorded.push(await recordScenario(scenario));
writeFileSync(join(REPO_ROOT, RECORDING_PATH), promtoolTestFile(recorded, '../sfd-sidecar.rules.yaml'));
process.stdout.write(`wrote ${RECORDING_PATH}\n`);
