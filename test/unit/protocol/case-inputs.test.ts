import { describe, expect, it } from 'vitest';
import { caseInputsFor, renderCaseInputs } from '../../../src/protocol/case-inputs.js';
import { inputFileName } from '../../../src/protocol/review-files.js';

describe('renderCaseInputs', () => {
  it('writes the vars in the case’s order, then the conversation turn by turn', () => {
    const text = renderCaseInputs({
      vars: { tier: 'gold', notes: 'first line\nsecond line', empty: '' },
      messages: [
        { role: 'user', content: 'Where is order 7?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { id: 7 } }],
        },
        { role: 'tool', toolCallId: 'call_1', content: '{"status":"shipped"}' },
        { role: 'user', content: 'And when does it arrive?' },
      ],
    });
    expect(text).toBe(
      [
        '# Variables',
        '',
        'tier: gold',
        'notes:',
        '  first line',
        '  second line',
        'empty:',
        '',
        '# Conversation',
        '',
        'User:',
        'Where is order 7?',
        '',
        'Assistant:',
        'Tool call call_1: lookup {"id":7}',
        '',
        'Tool result (call_1):',
        '{"status":"shipped"}',
        '',
        'User:',
        'And when does it arrive?',
        '',
      ].join('\n'),
    );
  });

  it('says (none) for a case without vars or without a conversation', () => {
    expect(renderCaseInputs({ vars: {} })).toBe('# Variables\n\n(none)\n\n# Conversation\n\n(none)\n');
    expect(renderCaseInputs({ vars: { q: 'Why?' }, messages: [] })).toBe(
      '# Variables\n\nq: Why?\n\n# Conversation\n\n(none)\n',
    );
  });

  it('inserts values verbatim: braces and markup stay as they are', () => {
    const text = renderCaseInputs({ vars: { q: '<b>{{not_a_var}}</b> & "x"' } });
    expect(text).toContain('q: <b>{{not_a_var}}</b> & "x"');
  });
});

describe('inputFileName and caseInputsFor', () => {
  it('numbers an input like its output', () => {
    expect(inputFileName('output_07.txt')).toBe('input_07.txt');
    expect(inputFileName('output_107.txt')).toBe('input_107.txt');
  });

  it('renders every case only under judging.inputs: true', () => {
    const cases = [
      { id: 'a', vars: { q: 'one' } },
      { id: 'b', vars: { q: 'two' } },
    ];
    expect(caseInputsFor(undefined, cases)).toBeUndefined();
    expect(caseInputsFor({}, cases)).toBeUndefined();
    expect(caseInputsFor({ inputs: false }, cases)).toBeUndefined();
    const inputs = caseInputsFor({ inputs: true }, cases);
    expect([...(inputs?.keys() ?? [])]).toEqual(['a', 'b']);
    expect(inputs?.get('b')).toBe(renderCaseInputs(cases[1] as (typeof cases)[number]));
  });
});
