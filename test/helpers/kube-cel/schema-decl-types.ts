// OpenAPI schemas as CEL types, the way the API server's SchemaDeclType reads them: references resolved
// (a cycle becomes an empty object), int-or-string as dyn, arrays as lists, additionalProperties as maps
// of string, properties as an object type named by its path (Pod.spec.containers.@idx), byte, duration
// and date-time strings as bytes, duration and timestamp, and a schema without a type dropped along
// with the field that holds it. A resource root keeps its metadata when it declares name and
// generateName, as a Pod's does.
import {
  BOOL,
  BYTES,
  DOUBLE,
  DURATION,
  DYN,
  INT,
  STRING,
  TIMESTAMP,
  listOf,
  mapOf,
  structType,
  type CelType,
} from './cel-types.js';
import type { OpenApiSchema } from './openapi-subset.js';

export type StructFields = Map<string, Map<string, CelType>>;

const RESERVED = new Set(
  (
    'true false null in as break const continue else for function if import let loop package namespace ' +
    'return var void while'
  ).split(' '),
);

/** A property name as a CEL field name (Kubernetes' escaping), or undefined when it cannot be one. */
export function escapeFieldName(name: string): string | undefined {
  if (name === '' || /^[0-9]/.test(name)) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z0-9_./-]*$/.test(name)) return undefined;
  return name.replace(
    /__|[./-]/g,
    (s) => ({ __: '__underscores__', '.': '__dot__', '/': '__slash__', '-': '__dash__' })[s]!,
  );
}

type Resolve = (name: string) => OpenApiSchema | undefined;
const REF_PREFIX = '#/components/schemas/';

function refOf(schema: OpenApiSchema): string | undefined {
  if (typeof schema.$ref === 'string') return schema.$ref.slice(REF_PREFIX.length);
  for (const part of (schema.allOf as OpenApiSchema[] | undefined) ?? []) {
    const ref = refOf(part);
    if (ref) return ref;
  }
  return undefined;
}

const props = (s: OpenApiSchema) => (s.properties as Record<string, OpenApiSchema> | undefined) ?? {};
const typeOfSchema = (s: OpenApiSchema) => (Array.isArray(s.type) ? (s.type[0] as string) : (s.type as string));

/** Declares the object types of a resource's schema in `structs` and returns the root's type. */
export function schemaDeclType(
  root: OpenApiSchema,
  rootName: string,
  resolve: Resolve,
  structs: StructFields,
): CelType | undefined {
  const visiting = new Set<string>();
  const convert = (input: OpenApiSchema, name: string, resourceRoot: boolean): CelType | undefined => {
    let schema = input;
    const ref = refOf(schema);
    if (ref) {
      if (visiting.has(ref)) schema = { type: 'object' };
      else {
        const resolved = resolve(ref);
        if (!resolved) throw new Error(`cannot resolve ${ref}`);
        visiting.add(ref);
        try {
          return convert({ ...resolved }, name, resourceRoot);
        } finally {
          visiting.delete(ref);
        }
      }
    }
    if (schema.format === 'int-or-string' || schema['x-kubernetes-int-or-string'] === true) return DYN;
    if (resourceRoot) schema = withTypeAndObjectMeta(schema, resolve);
    switch (typeOfSchema(schema)) {
      case 'array': {
        const items = schema.items as OpenApiSchema | undefined;
        if (!items) return undefined;
        const elem = convert(items, `${name}.@idx`, items['x-kubernetes-embedded-resource'] === true);
        return elem && listOf(elem);
      }
      case 'object': {
        const additional = schema.additionalProperties;
        if (typeof additional === 'object' && additional !== null) {
          const value = additional as OpenApiSchema;
          const valueType = convert(value, `${name}.@elem`, value['x-kubernetes-embedded-resource'] === true);
          return valueType && mapOf(STRING, valueType);
        }
        const fields = new Map<string, CelType>();
        structs.set(name, fields);
        for (const [property, propertySchema] of Object.entries(props(schema)).sort(([a], [b]) => a.localeCompare(b))) {
          const escaped = escapeFieldName(property);
          if (escaped === undefined) continue;
          const embedded = propertySchema['x-kubernetes-embedded-resource'] === true;
          const fieldType = convert(propertySchema, `${name}.${escaped}`, embedded);
          if (fieldType) fields.set(escaped, fieldType);
        }
        return structType(name);
      }
      case 'string':
        return (
          { byte: BYTES, duration: DURATION, date: TIMESTAMP, 'date-time': TIMESTAMP }[schema.format as string] ??
          STRING
        );
      case 'boolean':
        return BOOL;
      case 'number':
        return DOUBLE;
      case 'integer':
        return INT;
      default:
        return undefined;
    }
  };
  return convert(root, rootName, true);
}

function withTypeAndObjectMeta(schema: OpenApiSchema, resolve: Resolve): OpenApiSchema {
  const p = props(schema);
  const deref = (s: OpenApiSchema | undefined) => {
    const ref = s && refOf(s);
    return ref ? resolve(ref) : s;
  };
  const metadata = deref(p.metadata);
  const metaProps = metadata ? props(metadata) : {};
  if (
    typeOfSchema(p.kind ?? {}) === 'string' &&
    typeOfSchema(p.apiVersion ?? {}) === 'string' &&
    metadata &&
    typeOfSchema(metadata) === 'object' &&
    typeOfSchema(metaProps.name ?? {}) === 'string' &&
    typeOfSchema(metaProps.generateName ?? {}) === 'string'
  )
    return schema;
  const string = { type: 'string' };
  return {
    ...schema,
    properties: {
      ...p,
      kind: string,
      apiVersion: string,
      metadata: { type: 'object', properties: { name: string, generateName: string } },
    },
  };
}
