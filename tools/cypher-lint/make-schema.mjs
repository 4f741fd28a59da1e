// Regenerates neo4j5-schema.json: the procedures and functions of Neo4j 5 (Cypher 5)
// that the linter checks calls against.
//
// Source: the pinned @neo4j-cypher/language-support ships a real Neo4j 5 export
// (SHOW PROCEDURES / SHOW FUNCTIONS) only as its test fixture `testData.mockSchema`.
// A test fixture is no stable API, so we copy the part we need into a committed file
// and lint.mjs reads that file; bumping the package then shows up as a reviewable diff.
//
// Kept: built-in Neo4j procedures/functions (db.*, dbms.*, tx.*, cdc.*, temporal, ...).
// Dropped: plugin namespaces (APOC, Graph Data Science) -- castlegraph targets plain
// Neo4j 5 Community/Enterprise/Aura, where those may be absent, so calling them must be
// reported. Also dropped: the fixture's fake labels, property keys and parameters.
//
// Usage: node make-schema.mjs   (from tools/cypher-lint, after npm ci)
import { writeFileSync } from 'node:fs';
import { testData } from '@neo4j-cypher/language-support';

const VERSION = 'CYPHER 5';
const PLUGIN_PREFIXES = ['apoc.', 'gds.'];

function builtIns(registry) {
  const names = Object.keys(registry)
    .filter((name) => !PLUGIN_PREFIXES.some((p) => name.startsWith(p)))
    .sort();
  return Object.fromEntries(names.map((name) => [name, registry[name]]));
}

const { procedures, functions } = testData.mockSchema;
const schema = {
  defaultLanguage: VERSION,
  procedures: { [VERSION]: builtIns(procedures[VERSION]) },
  functions: { [VERSION]: builtIns(functions[VERSION]) },
};
const out = new URL('./neo4j5-schema.json', import.meta.url);
writeFileSync(out, JSON.stringify(schema, null, 1) + '\n');
console.log(
  `wrote ${out.pathname}: ${Object.keys(schema.procedures[VERSION]).length} procedures, ` +
    `${Object.keys(schema.functions[VERSION]).length} functions`,
);
