// The variables the kubelet gives every container for each Service of its namespace (service links,
// on unless a pod turns enableServiceLinks off): `NAME_SERVICE_HOST`, `NAME_SERVICE_PORT[_PORTNAME]`
// and the Docker-link form `NAME_PORT`, `NAME_PORT_N_PROTO[_PROTO|_PORT|_ADDR]`, where NAME is the
// Service's name in upper case with `_` for `-`. A Service named `sfd-...` yields SFD_* variables that
// are no setting; they are recognised by name and by the value the kubelet gives them, so that a
// misspelt setting with a value of its own (SFD_LISTEN_PORT=8080) is still named.

// Bounded repetitions only: a value may be long, and these run on every variable at each start.
const IPV4 = String.raw`(?:[0-9]{1,3}\.){3}[0-9]{1,3}`;
const IPV6 = '[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}';
const IP = `(?:${IPV4}|${IPV6})`;
const PORT = '[0-9]{1,5}';
const PROTOCOL = '(?:TCP|UDP|SCTP)';

/** Each shape: the name's tail after the Service's name, and the value the kubelet writes for it. */
const SHAPES: readonly { readonly tail: RegExp; readonly value: RegExp }[] = [
  { tail: /_SERVICE_HOST$/, value: new RegExp(`^${IP}$`) },
  { tail: /_SERVICE_PORT(?:_[A-Z0-9_]+)?$/, value: new RegExp(`^${PORT}$`) },
  { tail: /_PORT$/, value: new RegExp(`^(?:tcp|udp|sctp)://(?:${IPV4}|\\[${IPV6}\\]):${PORT}$`) },
  {
    tail: new RegExp(`_PORT_${PORT}_${PROTOCOL}$`),
    value: new RegExp(`^(?:tcp|udp|sctp)://(?:${IPV4}|\\[${IPV6}\\]):${PORT}$`),
  },
  { tail: new RegExp(`_PORT_${PORT}_${PROTOCOL}_PROTO$`), value: /^(?:tcp|udp|sctp)$/ },
  { tail: new RegExp(`_PORT_${PORT}_${PROTOCOL}_PORT$`), value: new RegExp(`^${PORT}$`) },
  { tail: new RegExp(`_PORT_${PORT}_${PROTOCOL}_ADDR$`), value: new RegExp(`^${IP}$`) },
];

/** Whether the variable is one the kubelet writes for a Service, by its name and its value. */
export function isServiceLink(name: string, value: string): boolean {
  return SHAPES.some((shape) => shape.tail.test(name) && shape.value.test(value));
}
