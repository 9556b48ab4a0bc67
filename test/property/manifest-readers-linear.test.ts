// The readers behind `inject` and `uninject` (the YAML stream, the JSON stream, and the edits over
// both) on text made to make them backtrack: banners of `#`, runs of `%`, `-`, blanks and brackets,
// document markers, quotes and backslashes, in and around workloads that are injected and written
// back. Every text is read, and every regular expression run on it (src/'s and the YAML library's
// alike) takes steps linear in the text's length: each execution within a budget linear in what it
// can scan, and all of them together within a fixed number of steps per character of the text. Steps
// are counted by regex-steps.ts, never timed; the texts reach tens of KB, where anything quadratic
// is far over the bound.
import test from 'ava';
import fc from 'fast-check';
import {
  injectManifestText,
  uninjectManifestText,
  type InjectedText,
} from '../../src/injection/manifests/edit-manifests.js';
import { readJsonStream } from '../../src/injection/manifests/json-stream.js';
import { readKubeYamlStream } from '../../src/injection/manifests/kube-yaml.js';
import { adversarialJson, adversarialYaml } from '../helpers/adversarial-text.js';
import { DEFAULTS } from '../helpers/injection.js';
import { countRegexSteps } from '../helpers/regex-steps.js';

/**
 * Steps of all executions together: a number per character of the text, and one per document written
 * (writing a document adds the sidecar's fields, whose text the writer checks pattern by pattern).
 */
const STEPS_PER_CHARACTER = 400;
const STEPS_PER_WRITTEN_DOCUMENT = 80_000;

/** What one execution may take: a number of steps per character it can scan, for each of the pattern's. */
const budget = (scanned: number, pattern: RegExp): number => 64 * (pattern.source.length + 1) * scanned;

const written = (edited: InjectedText): number =>
  edited.outcomes.filter((outcome) => outcome.injection.outcome === 'injected').length;

/** Everything `inject` and `uninject` do with a text and with what inject writes; the documents written. */
function readAndEdit(text: string): number {
  const stream = readKubeYamlStream(text);
  for (const document of stream.documents) void document.value;
  if (stream.toString() !== text) throw new Error('a stream left unchanged is not written back as it came');
  readJsonStream(text);
  const injected = injectManifestText(text, 'fuzz', DEFAULTS);
  const output = injected.documents.join('');
  return (
    written(injected) +
    written(uninjectManifestText(output, 'fuzz')) +
    written(injectManifestText(output, 'fuzz', DEFAULTS))
  );
}

/** Whether the text is read in linear steps; the first reason it is not, thrown, otherwise. */
function readInLinearSteps(text: string): boolean {
  const run = countRegexSteps(() => readAndEdit(text), budget);
  if (run.overBudget.length > 0) throw new Error(`over its budget: ${run.overBudget[0]}`);
  const bound = STEPS_PER_CHARACTER * (text.length + 1) + STEPS_PER_WRITTEN_DOCUMENT * run.result;
  if (run.steps > bound) throw new Error(`${run.steps} steps for ${text.length} characters (at most ${bound})`);
  return true;
}

test('YAML streams of any shape are read and edited in steps linear in their length', (t) => {
  fc.assert(fc.property(adversarialYaml, readInLinearSteps), { numRuns: 80, includeErrorInReport: true });
  t.pass();
});

test('JSON streams of any shape are read and edited in steps linear in their length', (t) => {
  fc.assert(fc.property(adversarialJson, readInLinearSteps), { numRuns: 80, includeErrorInReport: true });
  t.pass();
});

test('the bound catches a reader that backtracks, and one that runs a pattern over the text again and again', (t) => {
  const banner = `${'#'.repeat(40)}\nkind: ConfigMap\n---\nkind: ConfigMap\n`;
  const backtracking = countRegexSteps(() => /^(\s|#.*|%.*)*$/.test(banner), budget);
  t.is(backtracking.overBudget.length, 1);
  const documents = 'kind: ConfigMap\n---\n'.repeat(1000);
  const rescanning = countRegexSteps(() => {
    for (let index = 0; index < 1000; index += 1) /^apiVersion:/m.test(documents.slice(index));
  }, budget);
  t.deepEqual(rescanning.overBudget, []);
  t.true(rescanning.steps > STEPS_PER_CHARACTER * documents.length);
});
