// How deep a manifest's collections may nest, in YAML and JSON alike. The YAML library reads them by
// recursion, which nears the end of the stack at a few times this depth, and a changed JSON document is
// written out whole, indented by its depth; no manifest nests nearly so deep.
export const MAX_NESTING = 500;
