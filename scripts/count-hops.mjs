#!/usr/bin/env node
/**
 * Counts the cross-file hops of one default iteration, read from the TypeScript sources with
 * the compiler's type checker (no code runs), and prints them as ARCHITECTURE.md quotes them:
 *
 *   node scripts/count-hops.mjs           hops N across M files
 *   node scripts/count-hops.mjs --list    the same, then every hop (caller file:function ─▶ callee)
 *
 * What it counts, so a reader can recompute it by hand:
 * - It starts at `runIteration` (src/loop/iteration.ts) and visits every function that body
 *   reaches, transitively: each call (`f(…)`, `o.m(…)`, `new C(…)`) and each function named
 *   as an argument (a callback) whose declaration the checker finds in a file under src/.
 *   A function is a declaration, a method, or an arrow / function expression given to a
 *   `const`, a property or a class field; a function nested in a visited one (an inline
 *   callback) is part of it.
 * - The search is the default one: a call through the `SearchStrategy` interface
 *   (src/search/strategy.ts) goes to the member of the same name of `paretoSearch`
 *   (src/search/pareto.ts). Acceptance is paired (`acceptance.mode: paired`, the default):
 *   pareto decides every candidate through src/loop/accept-paired.ts, so no other binding is
 *   needed for it.
 * - Every other call through an interface or a function-typed value (the parts passed in:
 *   the model pool's clients, the Judge, the Grader, the recorder, git, the clock) ends the
 *   walk there and is not counted: those are the seams, and what stands behind them is chosen
 *   at run time. Calls into node_modules or Node's own modules are not counted either.
 * - Every call in a visited body counts, whichever branch it sits in (a merge every
 *   `merge_every` iterations, a retest, a failed proposal), except inside a `throw` statement:
 *   the count is the static call graph of the default iteration, which over-approximates what
 *   any one iteration runs.
 * - A hop is a distinct pair (calling function, called function) whose two functions live in
 *   different files; calling the same function twice from one function is one hop, and a
 *   call within a file is no hop (but is followed). The files are the distinct files of the
 *   visited functions, src/loop/iteration.ts included.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const START = { file: 'src/loop/iteration.ts', name: 'runIteration' };
const STRATEGY = { file: 'src/search/strategy.ts', interface: 'SearchStrategy' };
const DEFAULT_STRATEGY = { file: 'src/search/pareto.ts', name: 'paretoSearch' };

const configPath = join(ROOT, 'tsconfig.json');
const config = ts.readConfigFile(configPath, ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
const program = ts.createProgram([join(ROOT, START.file), join(ROOT, DEFAULT_STRATEGY.file)], options);
const checker = program.getTypeChecker();

const repoPath = (node) => relative(ROOT, node.getSourceFile().fileName);
const inSrc = (node) => {
  const file = node.getSourceFile();
  return !file.isDeclarationFile && file.fileName.startsWith(`${SRC}/`);
};
const isFunctionNode = (node) =>
  node !== undefined &&
  (ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node));

/** The function a declaration stands for, or undefined. */
function functionOf(declaration) {
  if (isFunctionNode(declaration)) return declaration;
  if (
    (ts.isVariableDeclaration(declaration) ||
      ts.isPropertyAssignment(declaration) ||
      ts.isPropertyDeclaration(declaration)) &&
    isFunctionNode(declaration.initializer)
  )
    return declaration.initializer;
  if (ts.isClassDeclaration(declaration)) return declaration.members.find(ts.isConstructorDeclaration);
  return undefined;
}

function nameOf(fn) {
  if (fn.name !== undefined && !ts.isConstructorDeclaration(fn)) return fn.name.getText();
  const parent = fn.parent;
  if (ts.isConstructorDeclaration(fn)) return `new ${fn.parent.name?.getText() ?? '(class)'}`;
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    const owner = parent.parent?.parent;
    const prefix =
      ts.isPropertyAssignment(parent) && ts.isVariableDeclaration(owner) ? `${owner.name.getText()}.` : '';
    return `${prefix}${parent.name.getText()}`;
  }
  return '(anonymous)';
}

/** `paretoSearch.<member>` for a member of the SearchStrategy interface. */
function defaultStrategyMember(declaration) {
  const owner = declaration.parent;
  if (!ts.isInterfaceDeclaration(owner) || owner.name.text !== STRATEGY.interface) return undefined;
  if (repoPath(owner) !== STRATEGY.file) return undefined;
  const file = program.getSourceFile(join(ROOT, DEFAULT_STRATEGY.file));
  let found;
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText() === DEFAULT_STRATEGY.name) {
      const literal = node.initializer;
      for (const property of literal.properties ?? []) {
        if (property.name?.getText() === declaration.name.getText()) found = functionOf(property);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The src function a callee expression names, or undefined (external, an interface, a value). */
function resolve(expression) {
  const at = ts.isPropertyAccessExpression(expression) ? expression.name : expression;
  let symbol = checker.getSymbolAtLocation(at);
  if (symbol === undefined) return undefined;
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  for (const declaration of symbol.declarations ?? []) {
    if (!inSrc(declaration)) continue;
    const fn = functionOf(declaration) ?? defaultStrategyMember(declaration);
    if (fn !== undefined) return fn;
  }
  return undefined;
}

/** The functions a body calls or hands on as callbacks, nested functions walked through. */
function calleesOf(fn) {
  const found = new Set();
  const visit = (node) => {
    // A throw ends the iteration's normal course: what builds the error is not on the path.
    if (ts.isThrowStatement(node)) return;
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const callee = resolve(node.expression);
      if (callee !== undefined) found.add(callee);
      for (const argument of node.arguments ?? []) {
        if (ts.isIdentifier(argument) || ts.isPropertyAccessExpression(argument)) {
          const callback = resolve(argument);
          if (callback !== undefined) found.add(callback);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  if (fn.body !== undefined) visit(fn.body);
  return found;
}

function findStart() {
  const file = program.getSourceFile(join(ROOT, START.file));
  const fn = file?.statements.find((s) => ts.isFunctionDeclaration(s) && s.name?.text === START.name);
  if (fn === undefined) throw new Error(`${START.file}: no function ${START.name}`);
  return fn;
}

const start = findStart();
const visited = new Set([start]);
const queue = [start];
const hops = [];
while (queue.length > 0) {
  const caller = queue.shift();
  for (const callee of calleesOf(caller)) {
    if (repoPath(callee) !== repoPath(caller)) hops.push([caller, callee]);
    if (!visited.has(callee)) {
      visited.add(callee);
      queue.push(callee);
    }
  }
}
const files = new Set([...visited].map(repoPath));

console.log(`hops ${hops.length} across ${files.size} files`);
if (process.argv.includes('--list')) {
  const label = (fn) => `${repoPath(fn)}:${nameOf(fn)}`;
  for (const [caller, callee] of hops) console.log(`  ${label(caller)} ─▶ ${label(callee)}`);
}
