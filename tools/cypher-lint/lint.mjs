// Lints Cypher text with Neo4j's official linter (@neo4j-cypher/language-support),
// offline, against the procedures and functions of Neo4j 5 (neo4j5-schema.json).
//
// Input, either:
//   stdin: JSON list of {"path": str, "text": str, "script"?: bool}
//          script=false (default): the text must hold exactly one statement (what the
//            driver runs); script=true: a Neo4j Browser file, several `;`-separated
//            statements and console commands (`:param ...`) allowed.
//   argv:  node lint.mjs FILE...   (manual use; each file is read as a script)
// Output (stdout): JSON list of findings
//   {path, statement_index, severity, message, line, column}
//   severity 1 = error, 2 = warning (deprecations are warnings); line/column are 1-based
//   in the file; statement_index is 0-based among the file's non-empty statements
//   (null for a finding about the whole file, e.g. an empty one).
// Exit code: 0 whenever it ran (the caller decides what a finding means); 2 on bad input.
import { readFileSync } from 'node:fs';
import {
  highlightSyntax,
  lintCypherQuery,
  parseParameters,
  parseStatementsStrs,
} from '@neo4j-cypher/language-support';

const SCHEMA = JSON.parse(readFileSync(new URL('./neo4j5-schema.json', import.meta.url), 'utf8'));
const FINDING_SEVERITIES = new Set([1, 2]); // 3 info / 4 hint are not findings

function readInput() {
  const files = process.argv.slice(2);
  if (files.length > 0) {
    return files.map((path) => ({ path, text: readFileSync(path, 'utf8'), script: true }));
  }
  return JSON.parse(readFileSync(0, 'utf8'));
}

// 1-based line and column of a character offset in `text`.
function position(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

// A chunk between semicolons that holds only comments (e.g. a file's trailing comment)
// is no statement.
function isEmptyStatement(statement, consoleCommands) {
  return highlightSyntax(statement, { consoleCommandsEnabled: consoleCommands }).every(
    (token) => token.tokenType === 'comment' || token.token === ';',
  );
}

function lintFile({ path, text, script = false }) {
  const findings = [];
  const report = (statementIndex, offset, severity, message) =>
    findings.push({ path, statement_index: statementIndex, severity, message, ...position(text, offset) });

  // Declare every $name of the file so that parameters are not reported as undefined;
  // the parser finds them, so a `$` inside a string or comment is ignored.
  const parameters = Object.fromEntries(parseParameters(text, script).map((name) => [name, null]));
  const dbSchema = { ...SCHEMA, parameters };

  // parseStatementsStrs splits with the Cypher lexer (a `;` in a string or comment does not
  // split) and returns exact slices of the text, so each slice's offset in the file is found
  // by searching onwards from the end of the previous one (should a lexer error ever make a
  // slice inexact, positions fall back to the end of the previous slice).
  let cursor = 0;
  const statements = [];
  for (const statement of parseStatementsStrs(text)) {
    const start = Math.max(text.indexOf(statement, cursor), cursor);
    cursor = start + statement.length;
    if (!isEmptyStatement(statement, script)) statements.push({ statement, start });
  }

  if (!script && statements.length !== 1) {
    // Point at the first character of the extra statement (or the file start if none).
    const extra = statements[1];
    const where = extra ? extra.start + extra.statement.search(/\S/) : 0;
    const message = `expected exactly one statement in this file, found ${statements.length}`;
    report(extra ? 1 : null, where, 1, message);
  }

  statements.forEach(({ statement, start }, index) => {
    let diagnostics;
    try {
      ({ diagnostics } = lintCypherQuery(statement, dbSchema, { consoleCommandsEnabled: script }));
    } catch (error) {
      report(index, start, 1, `linter crashed: ${error?.message ?? error}`);
      return;
    }
    for (const d of diagnostics) {
      if (!FINDING_SEVERITIES.has(d.severity)) continue;
      const offset = start + Math.min(d.offsets?.start ?? 0, statement.length);
      report(index, offset, d.severity, d.message);
    }
  });
  return findings;
}

let input;
try {
  input = readInput();
  if (!Array.isArray(input)) throw new Error('expected a JSON list of {path, text}');
} catch (error) {
  console.error(`lint.mjs: bad input: ${error.message}`);
  process.exit(2);
}
process.stdout.write(JSON.stringify(input.flatMap(lintFile), null, 1) + '\n');
