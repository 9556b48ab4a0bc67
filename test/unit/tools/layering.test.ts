// The layering rules hold for src/, and the check catches each kind of breach it is there for.
import { join } from 'node:path';
import test from 'ava';
import {
  importCycles,
  layerBreaches,
  readModules,
  unusedAllowances,
  type Module,
} from '../../../tools/check-layers.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

test('src/ keeps every layering rule and has no import cycle', (t) => {
  t.deepEqual(layerBreaches(readModules(join(REPO_ROOT, 'src'))), []);
});

test('the rules allow exactly the imports src/ makes: every allowance is used', (t) => {
  const modules = readModules(join(REPO_ROOT, 'src'));
  t.deepEqual(unusedAllowances(modules), []);
  // Without the one module through which the emulator uses the relay, that allowance is unused.
  const unused = unusedAllowances(modules.filter((m) => m.path !== 'emulator/lifecycle-route.ts'));
  t.true(unused.includes('tools/layers.ts allows src/emulator to import notify, and nothing there does: remove it'));
});

const module = (path: string, text: string): Module => ({ path, text });

test('a part importing a layer above it is a breach', (t) => {
  const breaches = layerBreaches([
    module('signing/sign.ts', "import { startSidecar } from '../sidecar.js';"),
    module('sidecar.ts', "import { sign } from './signing/sign.js';"),
  ]);
  t.deepEqual(
    breaches.filter((line) => !line.startsWith('import cycle')),
    ['signing/sign.ts imports sidecar.ts: signing may not import sidecar.ts'],
  );
});

test("the injection's stages are layers: a rule may not read the render, nor a part outside reach in", (t) => {
  const breaches = layerBreaches([
    module('injection/decide/rules.ts', "import { sidecarContainer } from '../render/sidecar-container.js';"),
    module('injection/render/sidecar-container.ts', "import { SIDECAR_NAME } from '../contract.js';"),
    module('injection/contract.ts', 'export const SIDECAR_NAME = 1;'),
    module('proxy/forwarder.ts', "import { decide } from '../injection/decide/decide.js';"),
  ]);
  t.deepEqual(breaches, [
    'injection/decide/rules.ts imports injection/render/sidecar-container.ts: injection/decide may not import ' +
      'injection/render',
    'proxy/forwarder.ts imports injection/decide/decide.ts: proxy may not import injection/decide',
  ]);
});

test("the emulator may not check signatures with the sidecar's signing code", (t) => {
  const breaches = layerBreaches([
    module('emulator/verifier.ts', "import { canonical } from '../signing/canonical.js';"),
  ]);
  t.deepEqual(breaches, ['emulator/verifier.ts imports signing/canonical.ts: emulator may not import signing']);
});

test('a library imported outside the module that owns it is a breach', (t) => {
  const breaches = layerBreaches([
    module('proxy/forwarder.ts', "import httpProxy from 'http-proxy';"),
    module('proxy/http-proxy-adapter.ts', "import httpProxy from 'http-proxy';"),
    module(
      'admin/create-admin-app.ts',
      "import { Hono } from 'hono';\nimport { serve } from '@hono/node-server/utils';",
    ),
  ]);
  t.deepEqual(breaches, ['proxy/forwarder.ts imports http-proxy, which only proxy/http-proxy-adapter.ts may import']);
});

test('only the entry file reads process; a comment, a string or a property named process is not a read', (t) => {
  const breaches = layerBreaches([
    module('main.ts', 'process.exitCode = 1;'),
    module('config/env.ts', 'export const port = () => process.env.PORT;'),
    module('text/words.ts', "// ends the process\nconst a = { process: 1 }; a.process = 2; const s = 'process.env';"),
  ]);
  t.deepEqual(breaches, ['config/env.ts reads process; only main.ts may']);
});

test('a part with no rule is named, so that a new directory gets its place in the layering', (t) => {
  t.deepEqual(layerBreaches([module('plugins/a.ts', "import { x } from '../text/x.js';")]), [
    'plugins/a.ts: src/plugins has no layering rule in tools/layers.ts',
  ]);
});

test('import cycles are found within a part and across parts, each once', (t) => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', ['a.ts']],
    ['e.ts', ['e.ts']],
  ]);
  t.deepEqual(importCycles(graph), [['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  t.deepEqual(
    layerBreaches([
      module('proxy/a.ts', "import type { B } from './b.js';"),
      module('proxy/b.ts', "import type { A } from './a.js';"),
    ]),
    ['import cycle: proxy/a.ts -> proxy/b.ts'],
  );
});

test('two folders of one part that import each other are a cycle, even with no module on a circle', (t) => {
  t.deepEqual(
    layerBreaches([
      module('injection/audit/run-checks.ts', "import { checkPods } from './checks/check-pods.js';"),
      module('injection/audit/cluster-input.ts', 'export const metadataOf = 1;'),
      module('injection/audit/checks/check-pods.ts', "import { metadataOf } from '../cluster-input.js';"),
    ]),
    ['import cycle between folders: injection/audit -> injection/audit/checks'],
  );
  t.deepEqual(
    layerBreaches([
      module('injection/audit/run-checks.ts', "import { checkPods } from './checks/check-pods.js';"),
      module('injection/audit/cluster/cluster-input.ts', 'export const metadataOf = 1;'),
      module('injection/audit/checks/check-pods.ts', "import { metadataOf } from '../cluster/cluster-input.js';"),
    ]),
    [],
  );
});
