// The texts the API server gives a client when admission refuses a pod, as patterns: the chart's
// admission policy denying with one of its messages, and a webhook that could not be called.
import { RELEASE } from './installed-chart.js';

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const POLICY = `${RELEASE}-keystore-mounts`;

/** The policy's denial, through its one binding, with the message that begins `message`. */
export const policyDenial = (message: string): RegExp =>
  new RegExp(literal(`ValidatingAdmissionPolicy '${POLICY}' with binding '${POLICY}' denied request: ${message}`));

/** The pods webhook (a pod asked by its own label) named in the error of a failed call. */
export const webhookCallFailed = (): RegExp =>
  new RegExp(literal(`Internal error occurred: failed calling webhook "pods.${RELEASE}.sfd-sidecar.io"`));
