// The address a caller's connection comes from, one spelling per caller: a listener bound to `::`
// sees an IPv4 caller as `::ffff:10.0.0.1`, which is the same caller as `10.0.0.1`.

const IPV4_MAPPED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/** The caller's address, IPv4-mapped IPv6 read as IPv4; '' when the socket no longer knows it. */
export function sourceAddress(remoteAddress: string | undefined): string {
  if (remoteAddress === undefined) return '';
  return IPV4_MAPPED.exec(remoteAddress)?.[1] ?? remoteAddress;
}
