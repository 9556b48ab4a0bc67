// SFD_NOTIFY_ALLOWED_CIDRS: which source addresses may post notifications (IPv4 and IPv6 ranges,
// IPv4-mapped IPv6 addresses treated as IPv4).
import { BlockList, isIP } from 'node:net';
import { sourceAddress } from '../../config/source-address.js';

export type SourceFilter = (remoteAddress: string | undefined) => boolean;

/** Parses `10.0.0.0/8, 2001:db8::/32, 192.0.2.7`; throws with the first bad entry. */
export function parseCidrList(text: string): { cidrs: string[]; filter: SourceFilter } {
  const list = new BlockList();
  const cidrs = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const cidr of cidrs) {
    const [address = '', prefixText, extra] = cidr.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    // A prefix, when written, is digits: `10.0.0.0/` must not read as /0, which would allow every address.
    if (
      family === 0 ||
      extra !== undefined ||
      (prefixText !== undefined && !/^\d+$/.test(prefixText)) ||
      !(prefix >= 0 && prefix <= max)
    )
      throw new Error(cidr);
    list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return {
    cidrs,
    filter: (remote) => {
      if (!remote) return false;
      const address = sourceAddress(remote);
      return list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
    },
  };
}
