import { describe, expect, it } from 'vitest';
import { buildFunctionBody, runExpression } from '../../../../src/checks/javascript/run-expression.js';

// Code that ends runs with a limit no busy machine reaches (at 200 ms, a fresh context under a
// load of 20 timed out before `process.exit` could throw); code that never ends, with a short one.
const run = (code: string, output = 'Hello', timeoutMs = 10_000) =>
  runExpression({ code, output, vars: { topic: 'tea' }, toolCalls: [], timeoutMs });
const runForever = (code: string) => run(code, 'Hello', 200);

describe('isolation', () => {
  it.each([
    'typeof process === "undefined"',
    'typeof require === "undefined"',
    'typeof module === "undefined" && typeof globalThis.Buffer === "undefined"',
    'typeof setTimeout === "undefined" && typeof fetch === "undefined"',
    'Function("return typeof process")() === "undefined"',
    'globalThis.constructor.constructor("return typeof process")() === "undefined"',
    'vars.constructor.constructor("return typeof process")() === "undefined"',
    'output.constructor.constructor("return typeof process")() === "undefined"',
  ])('cannot reach the runner: %s', (code) => {
    expect(run(code)).toMatchObject({ pass: true });
  });

  it('fails when code reaches for process or require', () => {
    expect(run('process.exit(1)')).toMatchObject({
      pass: false,
      error: true,
      reason: 'threw: process is not defined',
    });
    expect(run('require("node:fs")')).toMatchObject({ pass: false, reason: 'threw: require is not defined' });
  });

  it('starts every run in a fresh context', () => {
    expect(run('(globalThis.leak = 1, true)')).toMatchObject({ pass: true });
    expect(run('typeof globalThis.leak === "undefined"')).toMatchObject({ pass: true });
    expect((globalThis as Record<string, unknown>)['leak']).toBeUndefined();
  });

  it('cannot change the runner’s built-ins', () => {
    run('(Array.prototype.includes = () => true, String.prototype.trim = null, true)');
    expect([1].includes(2)).toBe(false);
    expect(' a '.trim()).toBe('a');
  });

  it('times out an infinite loop, in code and in a promise chain', () => {
    expect(runForever('while (true) {}')).toMatchObject({
      pass: false,
      error: true,
      reason: 'timed out after 0.2s',
    });
    expect(runForever('Promise.resolve().then(() => { for (;;) {} })')).toMatchObject({
      error: true,
      reason: 'timed out after 0.2s',
    });
  });

  it('runs a getter on the returned object inside the timeout', () => {
    expect(runForever('({ get pass() { for (;;) {} } })')).toMatchObject({
      error: true,
      reason: 'timed out after 0.2s',
    });
  });

  it('reports a thrown non-Error without reading it in the runner', () => {
    expect(runForever('throw { get message() { for (;;) {} } }')).toMatchObject({ error: true });
  });
});

describe('buildFunctionBody', () => {
  it('returns an expression', () => {
    expect(buildFunctionBody("output.includes('a;b')")).toBe("return (\noutput.includes('a;b')\n);");
  });

  it('returns the last expression after statements, even with semicolons in strings', () => {
    expect(run("const s = output + ';'; s === 'Hello;'")).toMatchObject({ pass: true });
    expect(run('const n = output.length;\nn === 5;')).toMatchObject({ pass: true });
  });

  it('keeps a body with its own return', () => {
    expect(
      run('if (output.length > 3) {\n  return { pass: false, score: 0, reason: "long" };\n}\nreturn true;'),
    ).toEqual({
      pass: false,
      score: 0,
      reason: 'long',
    });
  });

  it('sees vars and context.vars', () => {
    expect(run('vars.topic === "tea" && context.vars.topic === "tea"')).toMatchObject({ pass: true });
  });
});
