// Customer endpoints: the key owner's record without an id, any
// customer of the owner's tree by id, and the children of one.
import type { Hono } from 'hono';
import type { EmulatorEnv } from './emulator-context.js';
import { replyError, replyJson } from './emulator-context.js';
import { isInTree, type EmulatorState } from './emulator-state.js';
import { GATEWAY_ERRORS, type GatewayError } from './gateway-errors.js';
import type { Customer } from './seed-data.js';

export function addCustomerRoutes(app: Hono<EmulatorEnv>, state: EmulatorState): void {
  for (const version of ['v1.1', 'v1.2']) {
    app.get(`/${version}/customer`, (c) => {
      const ownerId = c.get('key').customerId;
      const owner = ownerId === null ? undefined : state.customers.get(ownerId);
      return owner ? replyJson(c, owner) : replyError(c, GATEWAY_ERRORS.customerIdInvalid);
    });
    app.get(`/${version}/customer/:id`, (c) => {
      const found = findInOwnersTree(state, c.get('key').customerId, c.req.param('id'));
      return 'error' in found ? replyError(c, found.error) : replyJson(c, found.customer);
    });
  }
  app.get('/v1.2/customerChildren/:id', (c) => {
    const found = findInOwnersTree(state, c.get('key').customerId, c.req.param('id'));
    if ('error' in found) return replyError(c, found.error);
    return replyJson(
      c,
      [...state.customers.values()].filter(
        (child) => child.parentId === found.customer.id && child.id !== found.customer.id,
      ),
    );
  });
}

function findInOwnersTree(
  state: EmulatorState,
  ownerId: number | null,
  idText: string,
): { customer: Customer } | { error: GatewayError } {
  if (!/^\d{1,15}$/.test(idText)) return { error: GATEWAY_ERRORS.customerIdInvalid };
  const customer = state.customers.get(Number(idText));
  if (!customer || ownerId === null || !isInTree(state, ownerId, customer.id))
    return { error: GATEWAY_ERRORS.forbidden };
  return { customer };
}
