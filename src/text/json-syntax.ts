// Where JSON text breaks the grammar, through one library: the only module that imports jsonc-parser.
// JSON.parse's own messages quote the text around the problem (a key store's text holds secrets) and
// some carry no position at all; this says the first problem's offset and what it is, in words that
// quote nothing.
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

export interface JsonSyntaxProblem {
  /** Character offset of the problem in the text. */
  readonly offset: number;
  readonly description: string;
}

/** What each of the library's error codes means, for a person fixing a file by hand. */
const DESCRIPTIONS: Readonly<Partial<Record<ReturnType<typeof printParseErrorCode>, string>>> = {
  InvalidSymbol: 'a character JSON does not allow here (single quotes, a name without quotes, NaN...)',
  InvalidNumberFormat: 'a number JSON does not allow',
  PropertyNameExpected: 'a property name in double quotes expected (a comma before a closing brace?)',
  ValueExpected: 'a value expected (a comma before a closing bracket?)',
  ColonExpected: 'a colon expected after the property name',
  CommaExpected: 'a comma expected',
  CloseBraceExpected: 'a closing brace expected',
  CloseBracketExpected: 'a closing bracket expected',
  EndOfFileExpected: 'text after the end of the JSON value',
  InvalidCommentToken: 'a comment, which JSON does not allow',
  UnexpectedEndOfComment: 'a comment that is not closed',
  UnexpectedEndOfString: 'a string that is not closed on its line',
  UnexpectedEndOfNumber: 'a number that ends too early',
  InvalidUnicode: 'a bad \\u escape',
  InvalidEscapeCharacter: 'a bad escape in a string',
  InvalidCharacter: 'a control character in a string (a line break must be written \\n)',
};

/** The first syntax problem of the text read as strict JSON, or null when it is valid JSON. */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | null {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) return null;
  const code = printParseErrorCode(first.error);
  return { offset: first.offset, description: DESCRIPTIONS[code] ?? `a syntax problem (${code})` };
}
