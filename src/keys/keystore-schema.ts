// The key store file format: every field with what it may be, as zod schemas (the one source for
// checking a file and for the published JSON Schema, schema/keystore.schema.json). The only module
// that imports zod for it. A file is checked field by field, so that every problem of a file comes out
// in one run, each naming its place and what is allowed, never the value.
import { z } from 'zod';
import { ACCESS_KEY_ID_PATTERN } from '../config/parsers.js';
import { PROFILE_NAME_PATTERN } from '../config/profile-parsers.js';
import { QUERY_PLACEMENTS, SIGNATURE_VERSIONS, V2_STRING_SHAPES } from '../signing/types.js';
import { SETTINGS } from '../config/settings.js';
import { NAMED_OPERATIONS, type NamedOperation } from '../operations/named-operations.js';
import { METHOD, PATH_PATTERN } from '../operations/operation-rules.js';

const rfc3339 = z.iso.datetime({ offset: true });

/** A field: its schema, and what it may be in words. */
interface Field {
  readonly schema: z.ZodType;
  readonly allowed: string;
}

export const KEY_FIELDS = {
  accessKeyId: {
    schema: z.string().regex(ACCESS_KEY_ID_PATTERN).describe('The access key id, sent in Authorization'),
    allowed: '1 to 128 printable characters without spaces or colons',
  },
  secret: {
    schema: z.string().min(1).describe('The access key secret (give this or secretFile)'),
    allowed: 'a non-empty string',
  },
  secretFile: {
    schema: z.string().min(1).describe("File holding the secret, relative to the key store's directory"),
    allowed: "a file path, relative to the key store's directory",
  },
  notBefore: {
    schema: rfc3339.describe('The key is not used before this instant'),
    allowed: 'an RFC 3339 instant, e.g. 2026-12-01T00:00:00Z',
  },
  notAfter: {
    schema: rfc3339.describe('The key is not used from this instant on'),
    allowed: 'an RFC 3339 instant, e.g. 2026-12-01T00:00:00Z',
  },
} as const satisfies Record<string, Field>;

/** The scheme as a string, or as the number people write (`signatureVersion: 2`). */
const signatureVersion = z
  .union([z.enum(SIGNATURE_VERSIONS), z.literal(SIGNATURE_VERSIONS.map(Number) as [number, ...number[]])])
  .transform((value) => String(value) as (typeof SIGNATURE_VERSIONS)[number]);

export const PROFILE_FIELDS = {
  upstreamUrl: {
    schema: z.string().describe(`Base URL for this profile, instead of ${SETTINGS.upstreamUrl.env}`),
    allowed: 'an http:// or https:// base URL',
  },
  signatureVersion: {
    schema: signatureVersion.describe('Signature scheme for this profile'),
    allowed: `${SIGNATURE_VERSIONS.join(' or ')} (a string or a number)`,
  },
  v2StringShape: {
    schema: z.enum(V2_STRING_SHAPES).describe('Scheme 2 string shape'),
    allowed: `one of ${V2_STRING_SHAPES.join(', ')}`,
  },
  queryPlacement: {
    schema: z.enum(QUERY_PLACEMENTS).describe('Where a GET/HEAD query is signed'),
    allowed: `one of ${QUERY_PLACEMENTS.join(', ')}`,
  },
} as const satisfies Record<string, Field>;

const operationItem = z.union([
  z.enum(NAMED_OPERATIONS as [NamedOperation, ...NamedOperation[]]),
  z.strictObject({
    methods: z.array(z.string().regex(METHOD)).min(1),
    paths: z.array(z.string().regex(PATH_PATTERN)).min(1),
  }),
]);

/** What a profile may sign: read item by item in parse-key-store.ts, stated here for the JSON Schema. */
export const LIMIT_FIELDS = {
  operations: {
    schema: z
      .array(operationItem)
      .describe('The API calls this profile signs: named operations and {methods, paths} rules; [] signs none'),
    allowed: 'a list of operations',
  },
  enforce: {
    schema: z.boolean().describe('false: a dry run of operations, calls outside it are counted, not refused'),
    allowed: 'true or false',
  },
} as const satisfies Record<string, Field>;

const schemaOf = <T extends Record<string, Field>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.schema.optional()]));

const keySchema = z
  .strictObject({ ...schemaOf(KEY_FIELDS), accessKeyId: KEY_FIELDS.accessKeyId.schema })
  .describe('One access key');
const profileSchema = z
  .strictObject({
    ...schemaOf(PROFILE_FIELDS),
    ...schemaOf(LIMIT_FIELDS),
    keys: z
      .array(keySchema)
      .min(1)
      .describe('The keys of this profile; it signs with the newest one whose window holds now'),
  })
  .describe('One account: its keys and, where it differs, its upstream and signing form');

export const keystoreSchema = z
  .strictObject({
    profiles: z
      .record(
        z.string().regex(PROFILE_NAME_PATTERN, 'letters, digits, dot, dash and underscore, at most 63'),
        profileSchema,
      )
      .describe('Profiles by name'),
  })
  .describe('sfd-sidecar key store');

/** A value checked against one field: its parsed value, or what is allowed. */
export function checkField(
  field: Field,
  value: unknown,
): { ok: true; value: unknown } | { ok: false; allowed: string } {
  const result = field.schema.safeParse(value);
  return result.success ? { ok: true, value: result.data } : { ok: false, allowed: field.allowed };
}

/** The JSON Schema published for operators' CI and editors. */
export function keystoreJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(keystoreSchema, { target: 'draft-2020-12', io: 'input' }) as JsonSchemaNode;
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
