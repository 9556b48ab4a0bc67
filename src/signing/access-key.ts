// Builds an AccessKey whose secret cannot be printed by accident (a crypto KeyObject).
import { createSecretKey } from 'node:crypto';
import type { AccessKey } from './types.js';

export function createAccessKey(accessKeyId: string, secret: string | Buffer): AccessKey {
  const material = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  return Object.freeze({ accessKeyId, secret: createSecretKey(material) });
}
