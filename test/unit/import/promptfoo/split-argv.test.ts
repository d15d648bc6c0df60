import { describe, expect, it } from 'vitest';
import { splitArgv } from '../../../../src/import/promptfoo/split-argv.js';

describe('splitArgv', () => {
  it('splits on whitespace and honours quotes and backslashes like a shell', () => {
    expect(splitArgv('python chain.py')).toEqual({ ok: true, argv: ['python', 'chain.py'] });
    expect(splitArgv(`node  run.mjs --mode 'strict json' "a \\"b\\"" c\\ d`)).toEqual({
      ok: true,
      argv: ['node', 'run.mjs', '--mode', 'strict json', 'a "b"', 'c d'],
    });
    expect(splitArgv(`echo '' "x"y`)).toEqual({ ok: true, argv: ['echo', '', 'xy'] });
    expect(splitArgv("say 'it''s'")).toEqual({ ok: true, argv: ['say', 'its'] });
    expect(splitArgv('curl https://example.com/a~b#c')).toEqual({
      ok: true,
      argv: ['curl', 'https://example.com/a~b#c'],
    });
  });

  it('keeps shell characters inside single quotes literal', () => {
    expect(splitArgv(`grep 'a|b;$HOME*' file`)).toEqual({ ok: true, argv: ['grep', 'a|b;$HOME*', 'file'] });
  });

  it.each([
    ['python a.py | tee log', '`|`'],
    ['python a.py > out.txt', '`>`'],
    ['cd x && python a.py', '`&`'],
    ['python $SCRIPT', '`$`'],
    ['python "$SCRIPT"', 'a variable'],
    ['python `which x`', 'needs a shell'],
    ['python *.py', '`*`'],
    ['python ~/a.py', '`~`'],
    ['python a.py # note', '`#`'],
    ['OPENAI_KEY=x python a.py', 'environment variables'],
    ["python 'unterminated", 'unterminated'],
    ['   ', 'empty'],
  ])('refuses %s, which needs a shell', (line, reason) => {
    const result = splitArgv(line);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });
});
