// How `npm run bench:stages` splits a CPU profile: each sample goes to the stage of the code that ran,
// per request, idle time left out.
import test from 'ava';
import { SHARED_NODE, stageCosts, type CpuProfile } from '../../bench/stage-costs.js';

const DIST = 'file:///app/dist';

/** A profile whose call tree is given as [id, function, url, parent] rows. */
function profileOf(rows: [number, string, string, number | null][], samples: [number, number][]): CpuProfile {
  return {
    nodes: rows.map(([id, functionName, url]) => ({
      id,
      callFrame: { functionName, url },
      children: rows.filter((row) => row[3] === id).map((row) => row[0]),
    })),
    samples: samples.map(([id]) => id),
    timeDeltas: samples.map(([, micros]) => micros),
  };
}

test("a sample goes to the stage of the code that ran; Node's crypto is signing, a native leaf its caller's", (t) => {
  const profile = profileOf(
    [
      [1, '(root)', '', null],
      [2, 'attempt', `${DIST}/src/proxy/proxy-exchange.js`, 1],
      [3, 'signRequest', `${DIST}/src/signing/sign-request.js`, 2],
      [4, 'Hmac', 'node:internal/crypto/hash', 3],
      [5, 'digest', '', 4],
      [6, 'web', 'file:///app/node_modules/http-proxy/lib/http-proxy/index.js', 2],
      [7, 'ClientRequest', 'node:_http_client', 6],
      [8, 'writev', '', 7],
      [9, '(idle)', '', 1],
      [10, '(garbage collector)', '', 1],
      [11, 'infoPerRequest', `${DIST}/src/observability/logger.js`, 2],
      [12, 'observe', `${DIST}/src/observability/bound-series.js`, 2],
      [13, 'setTimeout', 'node:timers', 2],
    ],
    [
      [2, 100],
      [3, 50],
      [4, 200],
      [5, 250],
      [6, 80],
      [7, 300],
      [8, 400],
      [9, 5000],
      [10, 120],
      [11, 60],
      [12, 40],
      [13, 20],
    ],
  );
  t.deepEqual(stageCosts(profile, 10), [
    [SHARED_NODE, 70],
    ['signing', 50],
    ['garbage collection', 12],
    ['the exchange', 10],
    ['library http-proxy', 8],
    ['request log line', 6],
    ['metrics', 4],
    ['deadlines (timers)', 2],
  ]);
});

test("the floor's glue and a file of no stage are named apart from the sidecar's stages", (t) => {
  const profile = profileOf(
    [
      [1, '(root)', '', null],
      [2, 'forward', `${DIST}/bench/stack-proxy.js`, 1],
      [3, 'main', `${DIST}/src/main.js`, 1],
      [4, '(program)', '', 1],
    ],
    [
      [2, 30],
      [3, 10],
      [4, 20],
    ],
  );
  t.deepEqual(stageCosts(profile, 2), [
    ["the floor's own glue", 15],
    ['V8 and the event loop', 10],
    ['start-up and other', 5],
  ]);
});
