// The signing handler: one ProxyExchange per request, built on what every request shares (the
// dependencies, the retry policy, the log filter). The steps of one request are the exchange's methods.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createConnectRetryPolicy } from './connect-retry.js';
import { ProxyExchange, type ExchangeContext, type ProxyHandlerDeps } from './proxy-exchange.js';
import { requestLogFilter } from './request-record.js';
import { createMismatchLogger } from './signing-mismatch-log.js';
import { createResignLogger } from './resign-log.js';
import { createOperationGate } from './operation-gate.js';

export type { ProxyHandlerDeps } from './proxy-exchange.js';

export type ProxyHandler = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

export function createProxyHandler(deps: ProxyHandlerDeps): ProxyHandler {
  const context: ExchangeContext = {
    ...deps,
    logMismatch: createMismatchLogger(deps.logger, deps.now),
    logResign: createResignLogger(deps.logger, deps.now),
    gateOperation: createOperationGate(deps.logger, deps.now),
    retryDelayMs: createConnectRetryPolicy({ retries: deps.limits.upstreamRetries, methods: deps.limits.retryMethods }),
    logged: requestLogFilter(deps.requestLog ?? 'all'),
  };
  return (incoming, outgoing) => new ProxyExchange(context, incoming, outgoing).start();
}
