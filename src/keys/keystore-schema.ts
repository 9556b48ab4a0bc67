// The key store file format (issue #3), as a zod schema: the one source for validation and for the
// published JSON Schema (schema/keystore.schema.json). The only module that imports zod for it.
import { z } from 'zod';

const rfc3339 = z.iso.datetime({ offset: true }).describe('RFC 3339 instant, e.g. 2026-12-01T00:00:00Z');

const keySchema = z
  .strictObject({
    accessKeyId: z
      .string()
      .regex(/^[\x21-\x39\x3b-\x7e]{1,128}$/, '1 to 128 printable characters without spaces or colons')
      .describe('The access key id, sent in Authorization'),
    secret: z.string().min(1).optional().describe('The access key secret (give this or secretFile)'),
    secretFile: z.string().min(1).optional().describe("File holding the secret, relative to the key store's directory"),
    notBefore: rfc3339.optional().describe('The key is not used before this instant'),
    notAfter: rfc3339.optional().describe('The key is not used from this instant on'),
  })
  .describe('One access key');

const profileSchema = z
  .strictObject({
    keys: z.array(keySchema).min(1).describe('The keys of this profile; it signs with the newest one whose window holds now'),
    upstreamUrl: z.string().optional().describe('Base URL for this profile, instead of SFD_UPSTREAM_URL'),
    signatureVersion: z.enum(['1', '2']).optional().describe('Signature scheme for this profile'),
    v2StringShape: z.enum(['spec', 'no-extra-lf', 'no-keyid', 'no-keyid-no-extra-lf']).optional().describe('Scheme 2 string shape'),
    queryPlacement: z.enum(['body', 'uri']).optional().describe('Where a GET/HEAD query is signed'),
  })
  .describe('One account: its keys and, where it differs, its upstream and signing form');

export const keystoreSchema = z
  .strictObject({
    profiles: z
      .record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'letters, digits, dot, dash and underscore, at most 63'), profileSchema)
      .describe('Profiles by name'),
  })
  .describe('sfd-sidecar key store');

export type KeystoreFile = z.infer<typeof keystoreSchema>;
export type KeystoreFileProfile = z.infer<typeof profileSchema>;

/** Every schema problem as `path: message`, e.g. `profiles.billing.keys[0].notAfter: Invalid ISO datetime`. */
export function checkKeystoreShape(value: unknown): { ok: true; value: KeystoreFile } | { ok: false; problems: string[] } {
  const result = keystoreSchema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problems: result.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`) };
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(file)';
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join('');
}

/** The JSON Schema published for operators' CI and editors. */
export function keystoreJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(keystoreSchema, { target: 'draft-2020-12' }) as JsonSchemaNode;
  // "secret" | "secretFile": exactly one of them (checked in parse-key-store.ts, stated here for editors and CI).
  const keyItems = schema.properties?.profiles?.additionalProperties?.properties?.keys?.items;
  if (keyItems) keyItems.oneOf = [{ required: ['secret'] }, { required: ['secretFile'] }];
  return { $id: 'https://sfd-sidecar.invalid/schema/keystore.schema.json', ...schema };
}

interface JsonSchemaNode {
  properties?: Record<string, JsonSchemaNode>;
  additionalProperties?: JsonSchemaNode;
  items?: JsonSchemaNode;
  oneOf?: unknown[];
}
