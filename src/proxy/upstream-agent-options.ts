// The keep-alive agent options for upstream sockets, in one place so that the forwarder and the
// benchmark's plain-node floor use the same ones.
import type { AgentOptions } from 'node:http';
import { DEFAULT_LIMITS } from '../config/limits-config.js';

/**
 * @param maxSockets sockets kept per upstream; requests beyond wait in the agent's queue
 * @param idleSocketTimeoutMs idle sockets are closed after this, below common upstream keep-alive timeouts
 */
export function upstreamAgentOptions(
  maxSockets = DEFAULT_LIMITS.upstreamMaxSockets,
  idleSocketTimeoutMs = 4000,
): AgentOptions {
  return {
    keepAlive: true,
    noDelay: true,
    maxSockets,
    maxFreeSockets: maxSockets,
    scheduling: 'lifo',
    timeout: idleSocketTimeoutMs,
  };
}
