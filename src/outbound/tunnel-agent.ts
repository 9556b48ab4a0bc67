// A keep-alive agent for an HTTPS upstream behind an egress proxy (SFD_UPSTREAM_PROXY): each new
// connection is a CONNECT tunnel through the proxy with TLS to the upstream inside it, so the proxy
// sees neither the signature nor the key id. The only module that imports https-proxy-agent.
import type { Agent, AgentOptions, ClientRequest } from 'node:http';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { describeUrl } from '../config/describe-url.js';
import { proxyAuthorization } from './egress-route.js';
import type { AgentTrust } from './trusted-certificates.js';
import { SETTINGS } from '../config/settings.js';

/** The proxy answered the CONNECT with something other than 200: no tunnel, nothing was sent upstream. */
export class TunnelRefusedError extends Error {
  constructor(
    readonly proxyStatus: number,
    proxyStatusText: string,
    proxy: URL,
  ) {
    const hint =
      proxyStatus === 407
        ? `: the proxy wants credentials, http://user:password@host:port in ${SETTINGS.upstreamProxy.env}`
        : '';
    super(`the egress proxy ${describeUrl(proxy)} refused the tunnel with ${proxyStatus} ${proxyStatusText}${hint}`);
    this.name = 'TunnelRefusedError';
  }
}

interface ProxyConnectAnswer {
  readonly statusCode: number;
  readonly statusText: string;
}

export type TunnelAgentFactory = typeof createTunnelAgent;

/**
 * @param agentOptions the same pool options as a direct upstream's agent (keep-alive, bounds, idle timeout)
 * @param trust what the upstream's certificate (and an https:// proxy's) is checked against
 */
export function createTunnelAgent(proxy: URL, agentOptions: AgentOptions, trust: AgentTrust): Agent {
  // The library gets the proxy's address without its credentials, which go in a header of their own:
  // its debug output (DEBUG=*) prints the proxy URL it was given.
  const agent = new HttpsProxyAgent(withoutCredentials(proxy), {
    ...agentOptions,
    ...trust,
    headers: proxyAuthorization(proxy),
  });
  // https-proxy-agent keeps its own `options`, which Node merges into every request's: say there that
  // the endpoint is TLS (otherwise agent-base looks for "https" in a stack trace on every request),
  // what the upstream's certificate is checked against, and the idle timeout Node applies to free
  // sockets (dropped otherwise, so idle tunnels would outlive the upstream's keep-alive).
  Object.assign(agent.options, { secureEndpoint: true, timeout: agentOptions.timeout, ...trust });
  agent.protocol = 'https:';
  // A refused CONNECT would otherwise be replayed to the request as if the upstream had answered it.
  agent.on('proxyConnect', (answer: ProxyConnectAnswer, request: ClientRequest) => {
    if (answer.statusCode !== 200) request.destroy(new TunnelRefusedError(answer.statusCode, answer.statusText, proxy));
  });
  return agent;
}

function withoutCredentials(proxy: URL): URL {
  const bare = new URL(proxy.href);
  bare.username = '';
  bare.password = '';
  return bare;
}
