import { describe, expect, it } from 'vitest';
import {
  findUnsupportedConstructs,
  placeholdersOf,
  renderPlaceholders,
  usesTemplate,
} from '../../../../src/import/promptfoo/nunjucks.js';

describe('Nunjucks in promptfoo templates', () => {
  const text =
    'Hi {{name}}, {{ topic }}! {{ product | upper }} {% if vip %}VIP{% endif %} {# note #} {{ user.name }} {{name}}';

  it('keeps plain {{var}} placeholders', () => {
    expect(placeholdersOf(text)).toEqual(['name', 'topic']);
  });

  it('finds filters, attributes, tags and comments, once each', () => {
    expect(findUnsupportedConstructs(text)).toEqual([
      { text: '{{ product | upper }}', kind: 'expression' },
      { text: '{% if vip %}', kind: 'tag' },
      { text: '{% endif %}', kind: 'tag' },
      { text: '{# note #}', kind: 'comment' },
      { text: '{{ user.name }}', kind: 'expression' },
    ]);
  });

  it('renders plain placeholders with case values, unknown ones as empty text like promptfoo', () => {
    expect(renderPlaceholders('{{ currency }} / {{missing}}', { currency: 'EUR' })).toBe('EUR / ');
    expect(renderPlaceholders('{{ x | upper }}', { x: 'a' })).toBeUndefined();
  });

  it('tells templated text from plain text', () => {
    expect(usesTemplate('no braces here')).toBe(false);
    expect(usesTemplate('{{a}}')).toBe(true);
    expect(usesTemplate('{% raw %}')).toBe(true);
  });
});
