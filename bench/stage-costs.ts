// Attributes a CPU profile's samples to the stages of a request, so that the sidecar and the `stack` floor,
// profiled under the same load, compare stage by stage. A sample belongs to the code running when it was
// taken: a sidecar file names its stage; Node's crypto is signing and its timers are the deadlines, the
// two pieces of Node's own work only the sidecar asks for; the rest of Node (HTTP, streams, sockets) and
// each library are shared by both rows and named as such. A native frame takes its caller's stage.
// Pure: the profile comes in as parsed JSON.

/** The parts of a V8 CPU profile (`--cpu-prof`) this reads. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string };
    readonly children?: readonly number[];
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The sidecar's files by stage, in the order they are tried: the first pattern that matches names it. */
const SIDECAR_STAGES: readonly (readonly [RegExp, string])[] = [
  [/\/src\/signing\/|\/src\/proxy\/request-signer\./, 'signing'],
  [/\/src\/observability\/(logger|batched-line-writer)\.|\/src\/proxy\/request-record\./, 'request log line'],
  [/\/src\/observability\//, 'metrics'],
  [/\/src\/proxy\/(outgoing-headers|http-proxy-adapter)\./, 'header building'],
  [/\/src\/proxy\/(request-target|operation-gate)\.|\/src\/operations\/|\/src\/keys\//, 'target, profile, operation'],
  [/\/src\/proxy\/(forwarder|forwarder-pool|upstream-reach|connect-retry)\.|\/src\/outbound\//, 'forwarding'],
  [/\/src\/proxy\/(stream-to-caller|tap-error-code)\./, 'response path'],
  [/\/src\/server\/|\/src\/http\//, 'connection bound and limits'],
  [/\/src\/proxy\//, 'the exchange'],
  [/\/bench\/stack-proxy\./, "the floor's own glue"],
];

/** Stages Node's own modules stand for when their code runs. */
const NODE_STAGES: readonly (readonly [RegExp, string])[] = [
  [/^node:(internal\/)?crypto/, 'signing'],
  [/^node:(internal\/)?timers/, 'deadlines (timers)'],
];

export const SHARED_NODE = "Node's HTTP, streams and sockets";
const NATIVE_STAGES: Record<string, string | null> = {
  '(idle)': null,
  '(garbage collector)': 'garbage collection',
  '(program)': 'V8 and the event loop',
};

/** Microseconds per request by stage, largest first; idle time left out. */
export function stageCosts(profile: CpuProfile, requests: number): [string, number][] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const known = new Map<number, string | null>();
  const stageOf = (id: number): string | null => {
    const cached = known.get(id);
    if (cached !== undefined) return cached;
    const { url, functionName } = byId.get(id)!.callFrame;
    let stage: string | null;
    if (url === '') {
      const parent = parentOf.get(id);
      if (functionName in NATIVE_STAGES) stage = NATIVE_STAGES[functionName]!;
      else stage = parent === undefined ? SHARED_NODE : stageOf(parent);
    } else {
      const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
      stage = library
        ? `library ${library[1]}`
        : url.startsWith('node:')
          ? (NODE_STAGES.find(([pattern]) => pattern.test(url))?.[1] ?? SHARED_NODE)
          : (SIDECAR_STAGES.find(([pattern]) => pattern.test(url))?.[1] ?? 'start-up and other');
    }
    known.set(id, stage);
    return stage;
  };
  const microseconds = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const stage = stageOf(id);
    if (stage !== null) microseconds.set(stage, (microseconds.get(stage) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return [...microseconds]
    .map(([stage, total]): [string, number] => [stage, total / requests])
    .sort((a, b) => b[1] - a[1]);
}
