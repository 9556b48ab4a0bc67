// The ports a pod visibly uses, each with why: declared (containerPort, hostPort), probed (an httpGet,
// tcpSocket or grpc probe on a number), named in an argument (`--port=8080`, `--port 8080`,
// `--listen :8080`) or set in the environment (`PORT=8080`, `HTTP_LISTEN=:8080`). All containers of a
// pod share one network namespace, so the sidecar must bind none of them.
import type { Container, PodSpec, Probe } from '../pod.js';

/** A flag or variable name that says it holds a port or a listening address. */
const PORTISH_NAME = /(port|listen|addr|address|bind)$/i;
/** A port, or an address ending in one (`:8080`, `0.0.0.0:8080`, `[::]:8080`). */
const PORT_VALUE = /^(?:(?:[\w.-]*|\[[0-9a-f:.]*\]):)?(\d{1,5})$/i;

/** Each port used by the pod and the first reason found for it. */
export function usedPorts(spec: PodSpec): Map<number, string> {
  const used = new Map<number, string>();
  const note = (port: number, reason: string): void => {
    if (Number.isInteger(port) && port > 0 && port <= 65535 && !used.has(port)) used.set(port, reason);
  };
  const containers = [...(spec.initContainers ?? []), ...spec.containers];
  for (const container of containers) {
    const who = `container ${container.name}`;
    for (const port of container.ports ?? []) {
      note(port.containerPort, `declared by ${who}`);
      if (port.hostPort !== undefined) note(port.hostPort, `declared as a host port by ${who}`);
    }
  }
  for (const container of containers) {
    const who = `container ${container.name}`;
    for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
      const port = probePort(container[kind]);
      if (port !== null) note(port, `probed by the ${kind} of ${who}`);
    }
    for (const [flag, port] of argumentPorts(container)) note(port, `named by the argument ${flag} of ${who}`);
    for (const variable of container.env ?? []) {
      const port = variable.value === undefined ? null : portIn(variable.name, variable.value);
      if (port !== null) note(port, `set by ${variable.name} in the environment of ${who}`);
    }
  }
  return used;
}

function probePort(probe: Probe | undefined): number | null {
  const port = probe?.httpGet?.port ?? probe?.tcpSocket?.port ?? probe?.grpc?.port;
  return typeof port === 'number' ? port : null;
}

/** `--port=8080` and `--port 8080` (and -p), from the command and the arguments. */
function argumentPorts(container: Container): [string, number][] {
  const words = [...(container.command ?? []), ...(container.args ?? [])];
  const found: [string, number][] = [];
  words.forEach((word, index) => {
    const joined = /^(--?[\w.-]+)=(.*)$/.exec(word);
    if (joined) {
      const port = portIn(joined[1]!, joined[2]!);
      if (port !== null) found.push([word, port]);
      return;
    }
    const next = words[index + 1];
    if (/^--?[\w.-]+$/.test(word) && next !== undefined) {
      const port = word === '-p' ? portIn('port', next) : portIn(word, next);
      if (port !== null) found.push([`${word} ${next}`, port]);
    }
  });
  return found;
}

function portIn(name: string, value: string): number | null {
  if (!PORTISH_NAME.test(name.replace(/^-+/, '').replaceAll('-', '_'))) return null;
  const match = PORT_VALUE.exec(value.trim());
  return match ? Number(match[1]) : null;
}
