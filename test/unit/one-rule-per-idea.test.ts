/**
 * Rules that once forked into copies that drifted apart have one exporter each, and their
 * callers import that one (read from the source with the TypeScript parser, not by running it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

interface SourceFacts {
  /** Exported functions, declared or as `const name = (…) =>`. */
  exportedFunctions: string[];
  /** Module specifier → the names imported from it. */
  imports: Map<string, string[]>;
  /** Identifiers the file calls. */
  calls: Set<string>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'browser' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function readFacts(path: string): SourceFacts {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const facts: SourceFacts = { exportedFunctions: [], imports: new Map(), calls: new Set() };
  const exported = (node: ts.Node) =>
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && exported(statement))
      facts.exportedFunctions.push(statement.name.text);
    if (ts.isVariableStatement(statement) && exported(statement))
      for (const declaration of statement.declarationList.declarations)
        if (
          ts.isIdentifier(declaration.name) &&
          declaration.initializer &&
          (ts.isArrowFunction(declaration.initializer) || ts.isFunctionExpression(declaration.initializer))
        )
          facts.exportedFunctions.push(declaration.name.text);
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const bindings = statement.importClause?.namedBindings;
      const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => e.name.text) : [];
      facts.imports.set(statement.moduleSpecifier.text, names);
    }
  }
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) facts.calls.add(node.expression.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return facts;
}

const FACTS = new Map(sourceFiles(SRC).map((path) => [relative(SRC, path), readFacts(path)]));

function exportersOf(pattern: RegExp): string[] {
  return [...FACTS]
    .filter(([, facts]) => facts.exportedFunctions.some((name) => pattern.test(name)))
    .map(([file]) => file);
}

/** The names `file` imports from the module at `target` (a path under src/, without `.ts`). */
function importedFrom(file: string, target: string): string[] {
  const facts = FACTS.get(file);
  if (facts === undefined) throw new Error(`no such source file: ${file}`);
  const dir = join(SRC, file, '..');
  return [...facts.imports]
    .filter(([specifier]) => relative(SRC, join(dir, specifier)) === `${target}.js`)
    .flatMap(([, names]) => names);
}

describe('one rule per idea', () => {
  it('missing API keys: one module finds them and says so, and every command that refuses asks it', () => {
    expect(exportersOf(/missing.?keys?/i)).toEqual(['experiment/missing-keys.ts']);
    const callers = {
      'cli/start-run.ts': 'refuseMissingKeys',
      'cli/resume-run.ts': 'refuseMissingKeys',
      'cli/commands/eval.ts': 'refuseMissingKeys',
      'cli/commands/calibrate.ts': 'refuseMissingKeys',
      'cli/commands/validate.ts': 'findMissingKeys',
      'experiment/resolve-models.ts': 'findMissingKeyModels',
      'judge/standalone-settings.ts': 'missingKeyOf',
    };
    for (const [file, name] of Object.entries(callers))
      expect(importedFrom(file, 'experiment/missing-keys'), file).toContain(name);
    // Whether a key is needed is asked only there, and by the adapters at call time.
    const askers = [...FACTS]
      .filter(([, facts]) => facts.calls.has('keyIsRequired'))
      .map(([file]) => file)
      .filter((file) => !file.startsWith('providers/'));
    expect(askers).toEqual(['experiment/missing-keys.ts']);
  });

  it('events to terminal text: one module, used by both run and watch', () => {
    expect(exportersOf(/^format\w*(Event|IterationLine|ProgressLine)$/)).toEqual(['ui/event-text.ts']);
    expect(importedFrom('ui/run-renderer.ts', 'ui/event-text')).toContain('formatEvent');
    expect(importedFrom('ui/watch-view.ts', 'ui/event-text')).toContain('formatEvent');
  });
});
