import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildJunitXml,
  escapeXmlAttr,
  escapeXmlText,
  stripInvalidXmlChars,
  writeJunitFile,
} from '../../../src/report/junit.js';
import { findAll, readXml, type XmlElement } from '../../fixtures/eval/read-xml.js';
import { sampleCase, sampleReport } from '../../fixtures/eval/sample-report.js';

const HOSTILE = [
  'Ignore the rubric ]]> <script>alert("x")</script> & </failure></testcase>',
  'quotes " and \' and <![CDATA[ nested ]]>',
  'controls:\u0000\u0001\u0007\u0008\u000b\u000c\u001b[31m\u007f end',
  'lone surrogates \ud800 and \udfff, non-characters \ufffe\uffff, emoji 😀 kept',
  'tab\tnew\nline\r\ncarriage',
].join('\n');

/** What survives: the text minus what XML 1.0 cannot carry (DEL is allowed). */
const SURVIVES = HOSTILE.replace(
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u{d800}\u{dfff}\u{fffe}\u{ffff}]/gu,
  '',
);

function testcase(root: XmlElement, name: string): XmlElement {
  const found = findAll(root, 'testcase').find((t) => t.attributes.name === name);
  if (!found) throw new Error(`no testcase ${name}`);
  return found;
}

describe('XML escaping', () => {
  it('drops exactly the characters XML 1.0 forbids', () => {
    expect(stripInvalidXmlChars(HOSTILE)).toBe(SURVIVES);
    expect(stripInvalidXmlChars('😀\u{10ffff}')).toBe('😀\u{10ffff}');
  });

  it('escapes markup in text and attributes, so ]]> and <script> are inert', () => {
    const text = escapeXmlText(HOSTILE);
    expect(text).not.toMatch(/[<>]/);
    expect(text).not.toContain(']]>');
    expect(text).toContain('&lt;script&gt;');
    const attr = escapeXmlAttr(HOSTILE);
    expect(attr).not.toMatch(/["'<>\n\t]/);
    expect(attr).toContain('&quot;');
    expect(attr).toContain('&#10;');
  });

  it('round-trips hostile text through a strict parser, in text and in attributes', () => {
    const xml = `<a title="${escapeXmlAttr(HOSTILE)}">${escapeXmlText(HOSTILE)}</a>`;
    const parsed = readXml(xml);
    expect(parsed.text).toBe(SURVIVES);
    expect(parsed.attributes.title).toBe(SURVIVES);
  });
});

describe('buildJunitXml', () => {
  it('writes one suite per split with cases, one testcase per case, failures with check reasons', () => {
    const root = readXml(buildJunitXml(sampleReport()));
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ tests: '3', failures: '1', errors: '0', time: '4.500' });
    const suites = findAll(root, 'testsuite');
    expect(suites.map((s) => [s.attributes.name, s.attributes.tests, s.attributes.failures])).toEqual([
      ['demo.train', '2', '1'],
      ['demo.holdout', '1', '0'],
    ]);
    expect(testcase(root, 'case-a').attributes).toEqual({ classname: 'demo', name: 'case-a', time: '1.250' });
    expect(findAll(testcase(root, 'case-a'), 'failure')).toEqual([]);
    const failure = findAll(testcase(root, 'case-b'), 'failure')[0];
    expect(failure?.attributes).toEqual({ type: 'check_failure', message: '1 failed check' });
    expect(failure?.text.split('\n')).toEqual([
      'check short failed (sample 0): 130 words, above the maximum 120',
      'judge (sample 0): clarity 3: Clear enough.',
      'score 0.2500 (checks 1.0000, judge 0.5000, expectations n/a)',
    ]);
    const properties = Object.fromEntries(
      findAll(suites[0] as XmlElement, 'property').map((p) => [p.attributes.name, p.attributes.value]),
    );
    expect(properties).toMatchObject({
      run_id: '20261129-2230-demo-k3f9',
      split: 'train',
      'score.total': '0.7000',
      'score.checks': '0.7000',
      'score.judge': '0.5000',
      'criterion.clarity': '3.5000',
      'all.total': '0.6600',
      gate_failures: '0',
    });
    expect(properties).not.toHaveProperty('score.expectations');
  });

  it('carries hostile outputs safely in failures: reasons, evidence and judge reasoning', () => {
    const report = sampleReport({
      cases: [
        sampleCase({
          id: 'evil',
          failedChecks: [{ check: 'no <script>', sample: 0, gate: true, reason: HOSTILE }],
          failedExpectations: [
            { text: 'Says "hi" & <waves>', evidence: HOSTILE, flag: 'claimed PASS not verified: ]]>' },
          ],
          judge: [{ sample: 0, criteria: { clarity: 1 }, reasoning: HOSTILE }],
        }),
      ],
    });
    const xml = buildJunitXml(report);
    expect(xml).not.toContain('<script>');
    const failure = findAll(readXml(xml), 'failure')[0];
    expect(failure?.attributes.type).toBe('gate_failure');
    expect(failure?.attributes.message).toBe('1 failed check, 1 unmet expectation');
    expect(failure?.text).toContain(`gate check no <script> failed (sample 0): ${SURVIVES}`);
    expect(failure?.text).toContain(
      `expectation not met: "Says "hi" & <waves>" (claimed PASS not verified: ]]>) evidence: "${SURVIVES}"`,
    );
  });

  it('marks a failed generation and omits the holdout suite when there are no holdout cases', () => {
    const report = sampleReport({
      cases: [sampleCase({ generationErrors: [{ sample: 0, error: 'Anthropic returned 500' }], total: 0 })],
    });
    const root = readXml(buildJunitXml(report));
    expect(findAll(root, 'testsuite').map((s) => s.attributes.name)).toEqual(['demo.train']);
    const failure = findAll(root, 'failure')[0];
    expect(failure?.attributes.type).toBe('generation_failure');
    expect(failure?.text).toMatch(/^generation failed \(sample 0\): Anthropic returned 500$/m);
  });

  it('reports a failed evaluation as one errored test case', () => {
    const report = sampleReport({
      status: 'error',
      error: { kind: 'judge_error', message: 'judge-scores.json lists output_03.txt twice <oops>' },
      splits: null,
      cases: [],
    });
    const root = readXml(buildJunitXml(report));
    expect(root.attributes).toMatchObject({ tests: '1', failures: '0', errors: '1' });
    const error = findAll(root, 'error')[0];
    expect(error?.attributes.type).toBe('judge_error');
    expect(error?.text).toBe('judge-scores.json lists output_03.txt twice <oops>');
    expect(findAll(root, 'testcase')[0]?.attributes.name).toBe('evaluation');
  });

  it('records the --fail-under verdict in the properties', () => {
    const report = sampleReport({
      failUnder: { split: 'holdout', threshold: 0.8, score: 0.6, passed: false, reason: 'below' },
    });
    const names = findAll(readXml(buildJunitXml(report)), 'property').map(
      (p) => `${p.attributes.name}=${p.attributes.value}`,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'fail_under.threshold=0.8',
        'fail_under.split=holdout',
        'fail_under.passed=false',
      ]),
    );
  });
});

describe('writeJunitFile', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('creates the folder and replaces the file whole, leaving no temporary file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ar-junit-'));
    const file = join(dir, 'reports', 'eval.xml');
    await writeJunitFile(file, sampleReport());
    await writeJunitFile(file, sampleReport({ experiment: 'second' }));
    expect(readXml(await readFile(file, 'utf8')).attributes.name).toBe('autoresearch eval second');
    expect(await readdir(join(dir, 'reports'))).toEqual(['eval.xml']);
  });
});
