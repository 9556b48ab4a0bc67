// Rate-limit endpoints: read and delete and the documented create/update, with the
// gateway's error codes.
import type { Hono } from 'hono';
import type { EmulatorContext, EmulatorEnv } from './emulator-context.js';
import { replyEmpty, replyError, replyJson } from './emulator-context.js';
import { isInTree, type EmulatorState } from './emulator-state.js';
import { GATEWAY_ERRORS, type GatewayError } from './gateway-errors.js';
import type { Service } from './seed-data.js';

const PATH = '/cdn/v1.0/services/:serviceId/rateLimit';

export function addRateLimitRoutes(app: Hono<EmulatorEnv>, state: EmulatorState): void {
  app.get(PATH, (c) => {
    const found = findService(c, state);
    if ('error' in found) return replyError(c, found.error);
    return replyJson(c, found.service.rateLimit ?? {});
  });
  app.delete(PATH, (c) => {
    const found = findService(c, state);
    if ('error' in found) return replyError(c, found.error);
    found.service.rateLimit = null;
    return replyEmpty(c);
  });
  app.post(PATH, (c) => {
    const found = findService(c, state);
    if ('error' in found) return replyError(c, found.error);
    const parsed = parseRateLimitBody(c.get('body'));
    if ('error' in parsed) return replyError(c, parsed.error);
    const previous = found.service.rateLimit;
    found.service.rateLimit = {
      timeWindow: parsed.timeWindow,
      requestLimit: parsed.requestLimit,
      ignoreUrlPath: parsed.ignoreUrlPath ?? previous?.ignoreUrlPath ?? false,
      ignoreQueryString: parsed.ignoreQueryString ?? previous?.ignoreQueryString ?? false,
    };
    return replyEmpty(c);
  });
}

function findService(c: EmulatorContext, state: EmulatorState): { service: Service } | { error: GatewayError } {
  const idText = c.req.param('serviceId') ?? '';
  if (!/^\d{1,15}$/.test(idText)) return { error: GATEWAY_ERRORS.serviceIdIncorrect };
  const ownerId = c.get('key').customerId;
  if (ownerId === null) return { error: GATEWAY_ERRORS.customerIdEmpty };
  const service = state.services.get(Number(idText));
  if (!service || !isInTree(state, ownerId, service.customerId)) return { error: GATEWAY_ERRORS.serviceIdPermission };
  return { service };
}

interface RateLimitInput {
  timeWindow: number;
  requestLimit: number;
  ignoreUrlPath?: boolean;
  ignoreQueryString?: boolean;
}

function parseRateLimitBody(body: Buffer): RateLimitInput | { error: GatewayError } {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return { error: GATEWAY_ERRORS.badRequest };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: GATEWAY_ERRORS.badRequest };
  const input = value as Record<string, unknown>;
  const positive = (n: unknown): n is number => Number.isInteger(n) && (n as number) > 0;
  if (!positive(input.timeWindow)) return { error: GATEWAY_ERRORS.timeWindow };
  if (!positive(input.requestLimit)) return { error: GATEWAY_ERRORS.requestLimit };
  for (const flag of ['ignoreUrlPath', 'ignoreQueryString']) {
    if (input[flag] !== undefined && typeof input[flag] !== 'boolean') return { error: GATEWAY_ERRORS.badRequest };
  }
  return {
    timeWindow: input.timeWindow,
    requestLimit: input.requestLimit,
    ignoreUrlPath: input.ignoreUrlPath as boolean | undefined,
    ignoreQueryString: input.ignoreQueryString as boolean | undefined,
  };
}
