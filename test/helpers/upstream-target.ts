// An upstream URL as the sidecar's settings read it, for tests that give one directly.
import { parseUpstreamUrl, type UpstreamTarget } from '../../src/config/parsers.js';

export function toUpstream(url: string): UpstreamTarget {
  const parsed = parseUpstreamUrl(url);
  if (!parsed.ok) throw new Error(`bad upstream ${url}`);
  return parsed.value;
}
