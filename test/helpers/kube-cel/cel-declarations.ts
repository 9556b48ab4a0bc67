// The functions the API server's CEL environment declares, by name, with their overloads: the standard
// library (with cross-type numeric comparisons, which Kubernetes enables), optional types, and the
// extension libraries Kubernetes adds (strings v2, sets, lists v3, two-variable comprehensions, and its
// own lists, regex, URLs, quantity, IP, CIDR, format, semver and authorizer libraries). Signatures are
// written as cel-go declares them; upper-case single letters are type parameters.
import { DYN, listOf, mapOf, opaqueType, optionalOf, typeOf, typeParam, type CelType } from './cel-types.js';

export interface Overload {
  readonly id: string;
  readonly member: boolean;
  readonly args: readonly CelType[];
  readonly result: CelType;
  readonly typeParams: readonly string[];
}

const SIMPLE: Record<string, CelType> = {
  bool: { kind: 'bool', params: [] },
  int: { kind: 'int', params: [] },
  uint: { kind: 'uint', params: [] },
  double: { kind: 'double', params: [] },
  string: { kind: 'string', params: [] },
  bytes: { kind: 'bytes', params: [] },
  null: { kind: 'null_type', params: [] },
  timestamp: { kind: 'timestamp', params: [] },
  duration: { kind: 'duration', params: [] },
  dyn: DYN,
};

/** Reads a signature type: int, list(A), map(string, list(string)), optional(A), type(A), net.IP. */
export function readType(text: string): CelType {
  const t = text.trim();
  const open = t.indexOf('(');
  if (open < 0) {
    if (/^[A-Z]$/.test(t)) return typeParam(t);
    return SIMPLE[t] ?? opaqueType(t);
  }
  const name = t.slice(0, open);
  const inner = t.slice(open + 1, -1);
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '(') depth++;
    if (inner[i] === ')') depth--;
    if (inner[i] === ',' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  const params = parts.map(readType);
  if (name === 'list') return listOf(params[0]!);
  if (name === 'map') return mapOf(params[0]!, params[1]!);
  if (name === 'type') return typeOf(params[0]!);
  if (name === 'optional') return optionalOf(params[0]!);
  return opaqueType(name, ...params);
}

function paramsOf(types: readonly CelType[]): string[] {
  const found = new Set<string>();
  const visit = (t: CelType) => {
    if (t.kind === 'param') found.add(t.name!);
    t.params.forEach(visit);
  };
  types.forEach(visit);
  return [...found];
}

/** An overload from `id: (args) -> result`, or `id: target.(args) -> result` for a member function. */
function overload(spec: string): Overload {
  const match = /^(\S+): (?:(.+)\.(?=\())?\((.*)\) -> (.+)$/.exec(spec);
  if (!match) throw new Error(`bad overload ${spec}`);
  const [, id, target, args, result] = match;
  const argTypes = [...(target ? [readType(target)] : []), ...(args ? splitTop(args).map(readType) : [])];
  const resultType = readType(result!);
  return {
    id: id!,
    member: !!target,
    args: argTypes,
    result: resultType,
    typeParams: paramsOf([...argTypes, resultType]),
  };
}

function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    if (text[i] === ')') depth--;
    if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const ORDERED = ['bool', 'int', 'uint', 'double', 'string', 'bytes', 'timestamp', 'duration'];
const NUMERIC_PAIRS = [
  ['int64_double', 'int', 'double'],
  ['int64_uint64', 'int', 'uint'],
  ['uint64_double', 'uint', 'double'],
  ['uint64_int64', 'uint', 'int'],
  ['double_int64', 'double', 'int'],
  ['double_uint64', 'double', 'uint'],
];
const GO_NAMES: Record<string, string> = { int: 'int64', uint: 'uint64' };

function comparisons(prefix: string): string[] {
  return [
    ...ORDERED.map((t) => `${prefix}_${GO_NAMES[t] ?? t}: (${t}, ${t}) -> bool`),
    ...NUMERIC_PAIRS.map(([id, a, b]) => `${prefix}_${id}: (${a}, ${b}) -> bool`),
  ];
}

const TIME_GETTERS = [
  'getFullYear',
  'getMonth',
  'getDayOfYear',
  'getDayOfMonth',
  'getDate',
  'getDayOfWeek',
  'getHours',
  'getMinutes',
  'getSeconds',
  'getMilliseconds',
];

const SPECS: Record<string, string[]> = {
  '_?_:_': ['conditional: (bool, A, A) -> A'],
  '_&&_': ['logical_and: (bool, bool) -> bool'],
  '_||_': ['logical_or: (bool, bool) -> bool'],
  '!_': ['logical_not: (bool) -> bool'],
  '@not_strictly_false': ['not_strictly_false: (bool) -> bool'],
  '_==_': ['equals: (A, A) -> bool'],
  '_!=_': ['not_equals: (A, A) -> bool'],
  '_+_': [
    'add_bytes: (bytes, bytes) -> bytes',
    'add_double: (double, double) -> double',
    'add_duration_duration: (duration, duration) -> duration',
    'add_duration_timestamp: (duration, timestamp) -> timestamp',
    'add_timestamp_duration: (timestamp, duration) -> timestamp',
    'add_int64: (int, int) -> int',
    'add_list: (list(A), list(A)) -> list(A)',
    'add_string: (string, string) -> string',
    'add_uint64: (uint, uint) -> uint',
  ],
  '_-_': [
    'subtract_double: (double, double) -> double',
    'subtract_duration_duration: (duration, duration) -> duration',
    'subtract_int64: (int, int) -> int',
    'subtract_timestamp_duration: (timestamp, duration) -> timestamp',
    'subtract_timestamp_timestamp: (timestamp, timestamp) -> duration',
    'subtract_uint64: (uint, uint) -> uint',
  ],
  '_*_': [
    'multiply_double: (double, double) -> double',
    'multiply_int64: (int, int) -> int',
    'multiply_uint64: (uint, uint) -> uint',
  ],
  '_/_': [
    'divide_double: (double, double) -> double',
    'divide_int64: (int, int) -> int',
    'divide_uint64: (uint, uint) -> uint',
  ],
  '_%_': ['modulo_int64: (int, int) -> int', 'modulo_uint64: (uint, uint) -> uint'],
  '-_': ['negate_double: (double) -> double', 'negate_int64: (int) -> int'],
  '_<_': comparisons('less'),
  '_<=_': comparisons('less_equals'),
  '_>_': comparisons('greater'),
  '_>=_': comparisons('greater_equals'),
  '_[_]': ['index_list: (list(A), int) -> A', 'index_map: (map(A, B), A) -> B'],
  '_[?_]': [
    'list_optindex_optional_int: (list(V), int) -> optional(V)',
    'optional_list_optindex_optional_int: (optional(list(V)), int) -> optional(V)',
    'map_optindex_optional_value: (map(K, V), K) -> optional(V)',
    'optional_map_optindex_optional_value: (optional(map(K, V)), K) -> optional(V)',
  ],
  '@in': ['in_list: (A, list(A)) -> bool', 'in_map: (A, map(A, B)) -> bool'],
  size: [
    'size_bytes: (bytes) -> int',
    'bytes_size: bytes.() -> int',
    'size_list: (list(A)) -> int',
    'list_size: list(A).() -> int',
    'size_map: (map(A, B)) -> int',
    'map_size: map(A, B).() -> int',
    'size_string: (string) -> int',
    'string_size: string.() -> int',
  ],
  type: ['type: (A) -> type(A)'],
  bool: ['bool_to_bool: (bool) -> bool', 'string_to_bool: (string) -> bool'],
  bytes: ['bytes_to_bytes: (bytes) -> bytes', 'string_to_bytes: (string) -> bytes'],
  double: [
    'double_to_double: (double) -> double',
    'int64_to_double: (int) -> double',
    'string_to_double: (string) -> double',
    'uint64_to_double: (uint) -> double',
  ],
  duration: [
    'duration_to_duration: (duration) -> duration',
    'int64_to_duration: (int) -> duration',
    'string_to_duration: (string) -> duration',
  ],
  dyn: ['to_dyn: (A) -> dyn'],
  int: [
    'int64_to_int64: (int) -> int',
    'double_to_int64: (double) -> int',
    'duration_to_int64: (duration) -> int',
    'string_to_int64: (string) -> int',
    'timestamp_to_int64: (timestamp) -> int',
    'uint64_to_int64: (uint) -> int',
  ],
  string: [
    'string_to_string: (string) -> string',
    'bool_to_string: (bool) -> string',
    'bytes_to_string: (bytes) -> string',
    'double_to_string: (double) -> string',
    'duration_to_string: (duration) -> string',
    'int64_to_string: (int) -> string',
    'timestamp_to_string: (timestamp) -> string',
    'uint64_to_string: (uint) -> string',
    'ip_to_string: (net.IP) -> string',
    'cidr_to_string: (net.CIDR) -> string',
  ],
  timestamp: [
    'timestamp_to_timestamp: (timestamp) -> timestamp',
    'int64_to_timestamp: (int) -> timestamp',
    'string_to_timestamp: (string) -> timestamp',
  ],
  uint: [
    'uint64_to_uint64: (uint) -> uint',
    'double_to_uint64: (double) -> uint',
    'int64_to_uint64: (int) -> uint',
    'string_to_uint64: (string) -> uint',
  ],
  contains: ['contains_string: string.(string) -> bool'],
  endsWith: ['ends_with_string: string.(string) -> bool'],
  startsWith: ['starts_with_string: string.(string) -> bool'],
  matches: ['matches: (string, string) -> bool', 'matches_string: string.(string) -> bool'],
  ...Object.fromEntries(
    TIME_GETTERS.map((name) => [
      name,
      [
        `timestamp_${name}: timestamp.() -> int`,
        `timestamp_${name}_with_tz: timestamp.(string) -> int`,
        ...(['getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'].includes(name)
          ? [`duration_${name}: duration.() -> int`]
          : []),
      ],
    ]),
  ),
  // Optional types.
  'optional.of': ['optional_of: (V) -> optional(V)'],
  'optional.ofNonZeroValue': ['optional_ofNonZeroValue: (V) -> optional(V)'],
  'optional.none': ['optional_none: () -> optional(T)'],
  value: ['optional_value: optional(V).() -> V'],
  hasValue: ['optional_hasValue: optional(V).() -> bool'],
  or: ['optional_or_optional: optional(V).(optional(V)) -> optional(V)'],
  orValue: ['optional_orValue_value: optional(V).(V) -> V'],
  // Strings extension, version 2.
  charAt: ['string_char_at_int: string.(int) -> string'],
  indexOf: [
    'string_index_of_string: string.(string) -> int',
    'string_index_of_string_int: string.(string, int) -> int',
    'list_a_index_of_int: list(A).(A) -> int',
  ],
  lastIndexOf: [
    'string_last_index_of_string: string.(string) -> int',
    'string_last_index_of_string_int: string.(string, int) -> int',
    'list_a_last_index_of_int: list(A).(A) -> int',
  ],
  lowerAscii: ['string_lower_ascii: string.() -> string'],
  upperAscii: ['string_upper_ascii: string.() -> string'],
  replace: [
    'string_replace_string_string: string.(string, string) -> string',
    'string_replace_string_string_int: string.(string, string, int) -> string',
  ],
  split: [
    'string_split_string: string.(string) -> list(string)',
    'string_split_string_int: string.(string, int) -> list(string)',
  ],
  substring: ['string_substring_int: string.(int) -> string', 'string_substring_int_int: string.(int, int) -> string'],
  trim: ['string_trim: string.() -> string'],
  join: ['list_join: list(string).() -> string', 'list_join_string: list(string).(string) -> string'],
  format: ['string_format: string.(list(dyn)) -> string'],
  'strings.quote': ['strings_quote: (string) -> string'],
  // Sets extension.
  'sets.contains': ['list_sets_contains_list: (list(T), list(T)) -> bool'],
  'sets.equivalent': ['list_sets_equivalent_list: (list(T), list(T)) -> bool'],
  'sets.intersects': ['list_sets_intersects_list: (list(T), list(T)) -> bool'],
  // Lists extension, version 3, and Kubernetes' lists library.
  slice: ['list_slice: list(T).(int, int) -> list(T)'],
  flatten: ['list_flatten: list(list(T)).() -> list(T)', 'list_flatten_int: list(dyn).(int) -> list(dyn)'],
  'lists.range': ['lists_range: (int) -> list(int)'],
  distinct: ['list_distinct: list(T).() -> list(T)'],
  reverse: ['list_reverse: list(T).() -> list(T)'],
  sort: ['list_sort: list(T).() -> list(T)'],
  first: ['list_first: list(T).() -> optional(T)'],
  last: ['list_last: list(T).() -> optional(T)'],
  isSorted: ['list_is_sorted: list(T).() -> bool'],
  sum: [
    'list_int_sum: list(int).() -> int',
    'list_uint_sum: list(uint).() -> uint',
    'list_double_sum: list(double).() -> double',
    'list_duration_sum: list(duration).() -> duration',
  ],
  min: ['list_min: list(T).() -> T'],
  max: ['list_max: list(T).() -> T'],
  'cel.@mapInsert': ['@mapInsert_map_key_value: (map(K, V), K, V) -> map(K, V)'],
  // Kubernetes' regex library.
  find: ['string_find_string: string.(string) -> string'],
  findAll: [
    'string_find_all_string: string.(string) -> list(string)',
    'string_find_all_string_int: string.(string, int) -> list(string)',
  ],
  // Kubernetes' URL library.
  url: ['string_to_url: (string) -> kubernetes.URL'],
  isURL: ['is_url_string: (string) -> bool'],
  getScheme: ['url_get_scheme: kubernetes.URL.() -> string'],
  getHost: ['url_get_host: kubernetes.URL.() -> string'],
  getHostname: ['url_get_hostname: kubernetes.URL.() -> string'],
  getPort: ['url_get_port: kubernetes.URL.() -> string'],
  getEscapedPath: ['url_get_escaped_path: kubernetes.URL.() -> string'],
  getQuery: ['url_get_query: kubernetes.URL.() -> map(string, list(string))'],
  // Kubernetes' quantity library.
  quantity: ['string_to_quantity: (string) -> kubernetes.Quantity'],
  isQuantity: ['is_quantity_string: (string) -> bool'],
  sign: ['quantity_sign: kubernetes.Quantity.() -> int'],
  isInteger: ['quantity_is_integer: kubernetes.Quantity.() -> bool'],
  asInteger: ['quantity_as_integer: kubernetes.Quantity.() -> int'],
  asApproximateFloat: ['quantity_as_float: kubernetes.Quantity.() -> double'],
  add: [
    'quantity_add: kubernetes.Quantity.(kubernetes.Quantity) -> kubernetes.Quantity',
    'quantity_add_int: kubernetes.Quantity.(int) -> kubernetes.Quantity',
  ],
  sub: [
    'quantity_sub: kubernetes.Quantity.(kubernetes.Quantity) -> kubernetes.Quantity',
    'quantity_sub_int: kubernetes.Quantity.(int) -> kubernetes.Quantity',
  ],
  isGreaterThan: [
    'quantity_is_greater_than: kubernetes.Quantity.(kubernetes.Quantity) -> bool',
    'semver_is_greater_than: kubernetes.Semver.(kubernetes.Semver) -> bool',
  ],
  isLessThan: [
    'quantity_is_less_than: kubernetes.Quantity.(kubernetes.Quantity) -> bool',
    'semver_is_less_than: kubernetes.Semver.(kubernetes.Semver) -> bool',
  ],
  compareTo: [
    'quantity_compare_to: kubernetes.Quantity.(kubernetes.Quantity) -> int',
    'semver_compare_to: kubernetes.Semver.(kubernetes.Semver) -> int',
  ],
  // Kubernetes' IP and CIDR libraries.
  ip: ['string_to_ip: (string) -> net.IP', 'cidr_ip: net.CIDR.() -> net.IP'],
  isIP: ['is_ip: (string) -> bool'],
  'ip.isCanonical': ['ip_is_canonical: (string) -> bool'],
  family: ['ip_family: net.IP.() -> int'],
  isUnspecified: ['ip_is_unspecified: net.IP.() -> bool'],
  isLoopback: ['ip_is_loopback: net.IP.() -> bool'],
  isLinkLocalMulticast: ['ip_is_link_local_multicast: net.IP.() -> bool'],
  isLinkLocalUnicast: ['ip_is_link_local_unicast: net.IP.() -> bool'],
  isGlobalUnicast: ['ip_is_global_unicast: net.IP.() -> bool'],
  cidr: ['string_to_cidr: (string) -> net.CIDR'],
  isCIDR: ['is_cidr: (string) -> bool'],
  containsIP: ['cidr_contains_ip_string: net.CIDR.(string) -> bool', 'cidr_contains_ip_ip: net.CIDR.(net.IP) -> bool'],
  containsCIDR: [
    'cidr_contains_cidr_string: net.CIDR.(string) -> bool',
    'cidr_contains_cidr: net.CIDR.(net.CIDR) -> bool',
  ],
  masked: ['cidr_masked: net.CIDR.() -> net.CIDR'],
  prefixLength: ['cidr_prefix_length: net.CIDR.() -> int'],
  // Kubernetes' format library.
  'format.named': ['format-named: (string) -> optional(kubernetes.NamedFormat)'],
  validate: ['format-validate: kubernetes.NamedFormat.(string) -> optional(list(string))'],
  ...Object.fromEntries(
    [
      'dns1123Label',
      'dns1123Subdomain',
      'dns1035Label',
      'qualifiedName',
      'dns1123LabelPrefix',
      'dns1123SubdomainPrefix',
      'dns1035LabelPrefix',
      'labelValue',
      'uri',
      'uuid',
      'byte',
      'date',
      'datetime',
    ].map((name) => [`format.${name}`, [`format-${name}: () -> kubernetes.NamedFormat`]]),
  ),
  // Kubernetes' semver library.
  semver: [
    'string_to_semver: (string) -> kubernetes.Semver',
    'string_bool_to_semver: (string, bool) -> kubernetes.Semver',
  ],
  isSemver: ['is_semver: (string) -> bool', 'is_semver_normalize: (string, bool) -> bool'],
  major: ['semver_major: kubernetes.Semver.() -> int'],
  minor: ['semver_minor: kubernetes.Semver.() -> int'],
  patch: ['semver_patch: kubernetes.Semver.() -> int'],
  // Kubernetes' authorizer library (with selectors).
  path: ['authorizer_path: kubernetes.authorization.Authorizer.(string) -> kubernetes.authorization.PathCheck'],
  group: ['authorizer_group: kubernetes.authorization.Authorizer.(string) -> kubernetes.authorization.GroupCheck'],
  serviceAccount: [
    'authorizer_serviceaccount: kubernetes.authorization.Authorizer.(string, string)' +
      ' -> kubernetes.authorization.Authorizer',
  ],
  resource: [
    'groupcheck_resource: kubernetes.authorization.GroupCheck.(string) -> kubernetes.authorization.ResourceCheck',
  ],
  subresource: [
    'resourcecheck_subresource: kubernetes.authorization.ResourceCheck.(string)' +
      ' -> kubernetes.authorization.ResourceCheck',
  ],
  namespace: [
    'resourcecheck_namespace: kubernetes.authorization.ResourceCheck.(string)' +
      ' -> kubernetes.authorization.ResourceCheck',
  ],
  name: [
    'resourcecheck_name: kubernetes.authorization.ResourceCheck.(string) -> kubernetes.authorization.ResourceCheck',
  ],
  fieldSelector: [
    'resourcecheck_fieldselector: kubernetes.authorization.ResourceCheck.(string)' +
      ' -> kubernetes.authorization.ResourceCheck',
  ],
  labelSelector: [
    'resourcecheck_labelselector: kubernetes.authorization.ResourceCheck.(string)' +
      ' -> kubernetes.authorization.ResourceCheck',
  ],
  check: [
    'pathcheck_check: kubernetes.authorization.PathCheck.(string) -> kubernetes.authorization.Decision',
    'resourcecheck_check: kubernetes.authorization.ResourceCheck.(string) -> kubernetes.authorization.Decision',
  ],
  errored: ['decision_errored: kubernetes.authorization.Decision.() -> bool'],
  error: ['decision_error: kubernetes.authorization.Decision.() -> string'],
  allowed: ['decision_allowed: kubernetes.authorization.Decision.() -> bool'],
  reason: ['decision_reason: kubernetes.authorization.Decision.() -> string'],
};

/** Every declared function by name. */
export const FUNCTIONS: ReadonlyMap<string, readonly Overload[]> = new Map(
  Object.entries(SPECS).map(([name, specs]) => [name, specs.map(overload)]),
);

/** The identifiers that name types (`int`, `list`, ...), each a value of type type(T). */
export const TYPE_IDENTIFIERS: Readonly<Record<string, CelType>> = {
  bool: typeOf(SIMPLE.bool!),
  bytes: typeOf(SIMPLE.bytes!),
  double: typeOf(SIMPLE.double!),
  int: typeOf(SIMPLE.int!),
  list: typeOf(listOf(DYN)),
  map: typeOf(mapOf(DYN, DYN)),
  null_type: typeOf(SIMPLE.null!),
  string: typeOf(SIMPLE.string!),
  uint: typeOf(SIMPLE.uint!),
  type: typeOf({ kind: 'type', params: [] }),
  'google.protobuf.Timestamp': typeOf(SIMPLE.timestamp!),
  'google.protobuf.Duration': typeOf(SIMPLE.duration!),
};
