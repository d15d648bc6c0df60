import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../../src/experiment/cases/parse-csv.js';

const values = (text: string) => parseCsv(text).records.map((r) => r.fields.map((f) => f.value));

describe('parseCsv', () => {
  it('splits plain fields and records, LF or CRLF', () => {
    expect(values('a,b\n1,2\r\n3,4')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('reads quoted commas, doubled quotes and line breaks inside quotes', () => {
    expect(values('a,b\n"x, y","say ""hi"""\n"two\nlines",z\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', 'z'],
    ]);
  });

  it('keeps empty fields, including a trailing one', () => {
    expect(values('a,b,c\n,,\n1,,\n')).toEqual([
      ['a', 'b', 'c'],
      ['', '', ''],
      ['1', '', ''],
    ]);
  });

  it('skips empty lines and a byte order mark', () => {
    expect(values('\uFEFFa\n\n1\n\n')).toEqual([['a'], ['1']]);
  });

  it('records where each record and field starts, across quoted line breaks', () => {
    const { records } = parseCsv('id,text\nfirst,"one\ntwo"\nsecond,x\n');
    expect(records.map((r) => r.line)).toEqual([1, 2, 4]);
    expect(records[1]?.fields[1]).toMatchObject({ line: 2, col: 7 });
    expect(records[2]?.fields[1]).toMatchObject({ line: 4, col: 8 });
  });

  it('reports an unterminated quote at the opening quote', () => {
    const result = parseCsv('a,b\n1,"open\n2,3\n');
    expect(result.error).toMatchObject({ line: 2, col: 3 });
    expect(result.error?.message).toContain('unterminated');
  });

  it('reports text after a closing quote', () => {
    const result = parseCsv('a\n"x"y\n');
    expect(result.error).toMatchObject({ line: 2, col: 4 });
  });

  it('keeps a quote in the middle of an unquoted field as text', () => {
    expect(values('size\n5" screen\n')).toEqual([['size'], ['5" screen']]);
  });
});

describe('parseCsv trailing commas', () => {
  it('reads a comma at the very end of the text as one more empty field', () => {
    expect(values('a,b\n1,')).toEqual([
      ['a', 'b'],
      ['1', ''],
    ]);
  });
});
