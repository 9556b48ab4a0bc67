// Which upstream hosts bypass the egress proxy: the NO_PROXY list (SFD_UPSTREAM_NO_PROXY, or the
// conventional NO_PROXY/no_proxy), read as curl and Go read it, with CIDR blocks as Kubernetes
// clusters write them. Loopback never goes through a proxy: the proxy's loopback is not the pod's.
import { BlockList, isIP } from 'node:net';
import { fail, ok, type Parsed } from './parsers.js';

export interface NoProxyList {
  /** True when a connection to this host and port goes directly, not through the proxy. */
  bypasses(hostname: string, port: number): boolean;
}

interface NameRule {
  /** Lowercase, without a leading `.` or `*.`. */
  readonly name: string;
  /** Only the name's subdomains, not the name itself (`.example.com`, `*.example.com`). */
  readonly subdomainsOnly: boolean;
  /** 0 when any port. */
  readonly port: number;
}

const ALLOWED =
  'a comma-separated list of host names (example.com also covers its subdomains, .example.com only them), IP ' +
  'addresses and CIDR blocks (10.0.0.0/8), each optionally with :port, or * for every host';

/** Loopback names and addresses, always direct. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** SFD_UPSTREAM_NO_PROXY: every entry must be understood. */
export function parseNoProxy(raw: string): Parsed<NoProxyList> {
  const { list, unread } = readNoProxy(raw);
  return unread.length === 0
    ? ok(list)
    : fail(`${ALLOWED}; ${unread.map((entry) => JSON.stringify(entry)).join(', ')} is none of these`);
}

/**
 * The list and the entries it could not read (skipped). A cluster-wide NO_PROXY, written for many
 * clients, is read this way: an entry only some other client understands must not stop the sidecar.
 */
export function readNoProxy(raw: string): { readonly list: NoProxyList; readonly unread: readonly string[] } {
  const entries = raw.split(/[,\s]+/).filter((entry) => entry !== '');
  if (entries.includes('*')) return { list: { bypasses: () => true }, unread: [] };
  const names: NameRule[] = [];
  const addresses = new BlockList();
  const unread: string[] = [];
  for (const entry of entries) {
    const parsed = parseEntry(entry.toLowerCase());
    if (parsed === null) unread.push(entry);
    else if ('name' in parsed) names.push(parsed);
    else if (parsed.prefix === null) addresses.addAddress(parsed.address, parsed.family);
    else addresses.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  const list: NoProxyList = {
    bypasses(hostname, port) {
      const host = normalizedHost(hostname);
      const family = addressFamily(host);
      if (family !== null && addresses.check(host, family)) return true;
      return names.some((rule) => (rule.port === 0 || rule.port === port) && nameMatches(host, rule));
    },
  };
  return { list, unread };
}

/** Loopback names and addresses: direct whatever the list says. */
export function isLoopback(hostname: string): boolean {
  const host = normalizedHost(hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = addressFamily(host);
  return family !== null && LOOPBACK.check(host, family);
}

/** Lowercase, without the brackets of an IPv6 literal. */
function normalizedHost(hostname: string): string {
  return hostname.toLowerCase().replace(/^\[|\]$/g, '');
}

/** A BlockList's family for an address; null for a name. */
function addressFamily(host: string): 'ipv4' | 'ipv6' | null {
  const family = isIP(host);
  return family === 0 ? null : family === 4 ? 'ipv4' : 'ipv6';
}

type Entry = NameRule | { readonly address: string; readonly prefix: number | null; readonly family: 'ipv4' | 'ipv6' };

function parseEntry(entry: string): Entry | null {
  const cidr = /^\[?([0-9a-f:.]+)\]?\/(\d{1,3})$/.exec(entry);
  if (cidr) {
    const family = addressFamily(cidr[1]!);
    const prefix = Number(cidr[2]);
    if (family === null || prefix > (family === 'ipv4' ? 32 : 128)) return null;
    return { address: cidr[1]!, prefix, family };
  }
  // [v6]:port, v4:port, name:port; a bare IPv6 address has colons of its own.
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(entry);
  const withPort = /^([^:]+):(\d{1,5})$/.exec(entry);
  const host = bracketed?.[1] ?? withPort?.[1] ?? entry;
  const port = Number(bracketed?.[2] ?? withPort?.[2] ?? 0);
  if (port > 65535) return null;
  const family = addressFamily(host);
  // An address with a port is kept as a name: a block list holds no ports.
  if (family !== null && port === 0) return { address: host, prefix: null, family };
  if (family !== null) return { name: host, subdomainsOnly: false, port };
  const subdomainsOnly = host.startsWith('.') || host.startsWith('*.');
  const name = host.replace(/^\*?\./, '');
  if (!/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(name)) return null;
  return { name, subdomainsOnly, port };
}

function nameMatches(host: string, rule: NameRule): boolean {
  if (host === rule.name) return !rule.subdomainsOnly;
  return host.endsWith(`.${rule.name}`);
}
