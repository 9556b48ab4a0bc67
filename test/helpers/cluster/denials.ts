// The texts the API server gives a client when admission refuses a pod, as patterns: the chart's
// admission policy denying with one of its messages or for want of its parameters, and a webhook that
// could not be called.
import { RELEASE } from './installed-chart.js';

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const POLICY = `${RELEASE}-keystore-mounts`;

/** The policy's denial, through any of its bindings, with the message that begins `message`. */
export const policyDenial = (message: string): RegExp =>
  new RegExp(
    literal(`ValidatingAdmissionPolicy '${POLICY}' with binding '${POLICY}`) +
      `[^']*` +
      literal(`' denied request: ${message}`),
  );

/** An entitlement binding's refusal while the API server has not got the policy's parameters. */
export const noParamsDenial = (): RegExp =>
  new RegExp(
    literal(`ValidatingAdmissionPolicy '${POLICY}' with binding '${POLICY}-entitlements-`) +
      `[^']*` +
      literal("' denied request: failed to configure binding: no params found for policy binding with `Deny`"),
  );

/** The pods webhook (a pod asked by its own label) named in the error of a failed call. */
export const webhookCallFailed = (): RegExp =>
  new RegExp(literal(`Internal error occurred: failed calling webhook "pods.${RELEASE}.sfd-sidecar.io"`));
