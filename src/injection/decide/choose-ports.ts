// The sidecar's ports in a pod: the defaults unless the pod visibly uses them (used-ports.ts), then the
// first free port of a range of its own. The signing port 8080 is the most common application port;
// when both want it, the sidecar is the one that moves, and says which port moved and why.
import type { PodSpec } from '../pod.js';
import { usedPorts } from './used-ports.js';

/** Where a moved port is looked for: the default plus this, upwards. */
const MOVED_OFFSET = 10_000;
const MOVED_RANGE = 100;

export interface ChosenPorts {
  readonly signing: number;
  readonly admin: number;
}

/**
 * @returns the ports, and a sentence for each port that moved; or a problem when a port the pod's
 *   annotation asked for is taken
 */
export function choosePorts(
  spec: PodSpec,
  wanted: { readonly signing: number; readonly admin: number; readonly signingFixed: boolean },
): { ok: true; ports: ChosenPorts; moves: string[] } | { ok: false; problem: string } {
  const taken = usedPorts(spec);
  const moves: string[] = [];
  const claim = (port: number, role: string, setting: string): number | null => {
    if (!taken.has(port)) {
      taken.set(port, `used by the sidecar's ${role} port`);
      return port;
    }
    for (
      let candidate = port + MOVED_OFFSET;
      candidate < port + MOVED_OFFSET + MOVED_RANGE && candidate <= 65535;
      candidate += 1
    ) {
      if (taken.has(candidate)) continue;
      moves.push(`the ${role} port ${port} is ${taken.get(port)}: the sidecar uses ${candidate} ` + `(${setting})`);
      taken.set(candidate, `used by the sidecar's ${role} port`);
      return candidate;
    }
    return null;
  };
  if (wanted.signingFixed && taken.has(wanted.signing)) {
    return {
      ok: false,
      problem: `the listen-port annotation asks for ${wanted.signing}, which is ${taken.get(wanted.signing)}`,
    };
  }
  const signing = claim(wanted.signing, 'signing', 'SFD_SIDECAR_URL in each application container points at it');
  const admin = claim(wanted.admin, 'admin', 'probes and metrics use it');
  if (signing === null || admin === null)
    return {
      ok: false,
      problem: 'no free port for the sidecar in the ranges it looks in; set sfd-sidecar.io/listen-port',
    };
  return { ok: true, ports: { signing, admin }, moves };
}
