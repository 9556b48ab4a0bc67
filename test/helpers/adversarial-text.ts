// Text made to find super-linear work in manifest readers: the characters YAML and JSON give meaning to
// (`#`, `%`, `-`, `:`, quotes, backslashes, brackets, blanks), long runs of one of them, document markers,
// and workloads that carry such text in every place a value can stand (comments, plain, quoted, literal
// and folded scalars, keys), so that the documents are injected and written back too.
import fc from 'fast-check';

const TOKENS = [
  '#',
  '%',
  '-',
  ':',
  '"',
  "'",
  '\\',
  '[',
  ']',
  '{',
  '}',
  ',',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '?',
  '&a',
  '*a',
  '!',
  '!!binary',
  '|',
  '>',
  'a',
  '0',
  '.',
  '---',
  '...',
  '<<',
  'containers',
  'c\\u006Fntainers',
  '\\"',
  'yes',
  '~',
  '\u2028',
  '\ufeff',
];

/** What runs are made of: one character, or a short piece that means something when repeated. */
const RUN_PIECES = [
  '#',
  '%',
  '-',
  ' ',
  '\t',
  '\n',
  '\r',
  '[',
  '{',
  ']',
  '"',
  "'",
  '\\',
  ':',
  '---\n',
  '\n---',
  '...\n',
  ' \n',
  '#\n',
  '%YAML 1.1\n',
  '- ',
  '? ',
  'a: ',
  '[a, ',
  '{"a": ',
  '\\\\',
  '\\u0',
  '# ---\n',
];

const soup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 80 }).map((parts) => parts.join(''));
const run = fc
  .tuple(fc.constantFrom(...RUN_PIECES), fc.integer({ min: 1, max: 3000 }))
  .map(([piece, count]) => piece.repeat(count));
/** A piece of adversarial text: a soup of tokens, a run, or both. */
const fragment = fc.oneof(
  soup,
  run,
  fc.tuple(run, soup, run).map((parts) => parts.join('')),
);

const indent = (text: string, by: string): string =>
  text
    .split('\n')
    .map((line) => by + line)
    .join('\n');

const lines = (text: string, by: string): string => (text === '' ? '' : `${indent(text, by)}\n`);

/** The pod's containers, under each spelling of the key kubectl reads as `containers`. */
const CONTAINERS = [
  (extra: string) => `      containers:\n      - name: app\n        image: example/app:1\n${lines(extra, '        ')}`,
  (extra: string) =>
    `      "c\\u006Fntainers":\n      - name: app\n        image: example/app:1\n${lines(extra, '        ')}`,
  (extra: string) =>
    `      ? containers\n      : - name: app\n          image: example/app:1\n${lines(extra, '          ')}`,
];

/** A Deployment (YAML) with the fragment in one place: it parses, or fails to, in every way there is. */
const yamlWorkload = fc
  .tuple(fragment, fc.integer({ min: 0, max: 7 }), fc.constantFrom(...CONTAINERS))
  .map(([text, place, containers]) => {
    const single = text.replaceAll('\n', ' ');
    const at = (slot: number, value: string): string => (place === slot ? value : '');
    return [
      at(0, `${indent(text, '#')}\n`),
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: fuzz\n',
      `  annotations:\n    plain: ${place === 1 ? single : 'x'}\n`,
      at(2, `    quoted: "${single}"\n`),
      at(3, `    single: '${single}'\n`),
      'spec:\n  selector: {matchLabels: {app: fuzz}}\n  template:\n    metadata:\n',
      '      labels: {app: fuzz}\n      annotations:\n',
      `        literal: |\n${indent(place === 4 ? text : 'x', '          ')}\n`,
      `        folded: >\n${indent(place === 5 ? text : 'x', '          ')}\n`,
      '    spec:\n',
      containers(place === 6 ? `# ${single}` : place === 7 ? `args: [${single}]` : ''),
    ].join('');
  });

/** A Pod (JSON) with the fragment as a string, or a JSON-looking fragment of its own. */
const jsonWorkload = fc.oneof(
  fragment.map((text) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'fuzz', annotations: { note: text } },
      spec: { containers: [{ name: 'app', image: 'example/app:1', args: [text] }] },
    }),
  ),
  fragment.map((text) => `{"kind": "Pod", "spec": {"containers": [${text}]}}`),
);

/** A stream: fragments, workloads and document markers one after the other (tens of KB at most). */
export const adversarialYaml = fc
  .array(fc.oneof(fragment, yamlWorkload, fc.constant('\n---\n'), fc.constant('---\n')), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => parts.join(''));

/** JSON values one after the other, with fragments between and inside them. */
export const adversarialJson = fc
  .array(fc.oneof({ weight: 3, arbitrary: jsonWorkload }, { weight: 1, arbitrary: fragment }), {
    minLength: 1,
    maxLength: 4,
  })
  .map((parts) => parts.join('\n'));

export const adversarialText = fc.oneof(adversarialYaml, adversarialJson);
