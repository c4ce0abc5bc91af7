#!/usr/bin/env node
// Part of `npm run lint`: no source file under src/ over MAX_FILE_LINES lines and no function
// over MAX_FUNCTION_LINES lines, unless the reason is written at its top (see MARKER).
// Lines are counted as written, blank and comment lines included: that is what a reader scrolls.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 60;
/**
 * The reason a file or function may be long: a line comment `// size: <why>` among the comments
 * at the top of the file (before its first statement), or right above the function (above the
 * statement, class member or property that holds it, doc comment or not).
 */
const MARKER = /\/\/\s*size:\s*\S.{9,}/;

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every .ts/.js/.mjs file under `dir`, as a path relative to the project root. */
function sourceFiles(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(?:ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** True when one of the comments just before `pos` carries the marker. */
function markedAt(text, pos) {
  return (ts.getLeadingCommentRanges(text, pos) ?? []).some((c) => MARKER.test(text.slice(c.pos, c.end)));
}

/** The comments at the top of the file, before its first statement. */
function fileMarked(source) {
  const first = source.statements[0];
  const end = first ? first.getStart(source) : source.text.length;
  return MARKER.test(source.text.slice(0, end));
}

/** A readable name for a function node. */
function nameOf(node, source) {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)))
    return parent.name.getText(source);
  return '(anonymous)';
}

/** The nodes whose leading comments may hold a function's reason: it and its holders up to a statement or member. */
function* holders(node) {
  for (let n = node; n && !ts.isSourceFile(n); n = n.parent) {
    yield n;
    if (ts.isStatement(n) || ts.isClassElement(n) || ts.isPropertyAssignment(n) || ts.isObjectLiteralElement(n)) return;
  }
}

/**
 * A function expression called where it stands at the top of a file, `(() => { … })();`: the
 * scope of a browser script, not a function anyone calls; the file's own limit covers it.
 */
function isFileScope(node) {
  let n = node.parent;
  while (n && ts.isParenthesizedExpression(n)) n = n.parent;
  if (!n || !ts.isCallExpression(n)) return false;
  let statement = n.parent;
  while (statement && (ts.isParenthesizedExpression(statement) || ts.isPrefixUnaryExpression(statement))) statement = statement.parent;
  return !!statement && ts.isExpressionStatement(statement) && ts.isSourceFile(statement.parent);
}

/** The problems in one file. */
function check(path) {
  const text = readFileSync(join(root, path), 'utf8');
  const kind = path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const problems = [];
  const lines = source.getLineAndCharacterOfPosition(text.length).line + (text.endsWith('\n') ? 0 : 1);
  if (lines > MAX_FILE_LINES && !fileMarked(source))
    problems.push(`${path}: ${lines} lines (over ${MAX_FILE_LINES}); split it, or write \`// size: <reason>\` at its top`);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body && !isFileScope(node)) {
      const from = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const to = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = to - from + 1;
      if (length > MAX_FUNCTION_LINES && ![...holders(node)].some((n) => markedAt(text, n.getFullStart())))
        problems.push(
          `${path}:${from + 1}: function ${nameOf(node, source)} is ${length} lines (over ${MAX_FUNCTION_LINES}); split it, or write \`// size: <reason>\` right above it`,
        );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

const files = sourceFiles('src');
const problems = files.flatMap(check);
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`check-size: ${problems.length} problem(s) in ${relative(root, join(root, 'src'))}/`);
  process.exit(1);
}
console.log(
  `check-size: ${files.length} files, none over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES} without a reason`,
);
