import { describe, expect, it } from 'vitest';
import { parseInstructions } from '../../../../../src/providers/sim/instructions.js';
import { readDocument } from '../../../../../src/providers/sim/roles/document-fields.js';
import { VALUE_FAMILIES, type ValueFamily } from '../../../../../src/providers/sim/value-rules.js';

const INVOICE = `Extract the fields of this vendor invoice.

Nordlicht Bürobedarf GmbH · Hafenstraße 8 · 20457 Hamburg
Rechnung Nr. NB-5540 · Datum: 03.04.2026
1    3     Bürostuhl Ergo Plus       289,00 €   867,00 €
2    6     Schreibtischlampe LED      42,50 €   255,00 €
3    1     Rabatt                                -22,00 €
Nettobetrag 1.100,00 € · MwSt. 19 % 209,00 € · Gesamtbetrag 1.309,00 €`;

const read = (obeyed: ValueFamily[], text = INVOICE, toolResults: string[] = []) =>
  readDocument({ text, toolResults, obeyed: new Set(obeyed) });

const rows = (reader: ReturnType<typeof read>) =>
  (reader.rows('line_items') ?? []).map((row) => ({
    description: row.value('description'),
    quantity: row.value('quantity'),
    unit_price: row.value('unit_price'),
    amount: row.value('amount'),
  }));

describe('the simulated document reader', () => {
  it('without value rules copies what is printed and misreads separators and negative lines', () => {
    const careless = read([]);
    expect(careless.value('date')).toBe('03.04.2026');
    expect(careless.value('currency')).toBe('€');
    expect(careless.value('total')).toBe(1.309);
    expect(careless.value('invoice_number')).toBe('NB-5540');
    expect(careless.value('vendor_name')).toBe('Nordlicht Bürobedarf GmbH');
    expect(rows(careless).map((r) => r.amount)).toEqual([867, 255]);
  });

  it('under the rules writes ISO dates and currency codes, plain numbers and every line item', () => {
    const careful = read(['dates', 'codes', 'numbers', 'items']);
    expect(careful.value('date')).toBe('2026-04-03');
    expect(careful.value('currency')).toBe('EUR');
    expect(careful.value('tax')).toBe(209);
    expect(careful.value('total')).toBe(1309);
    expect(careful.value('subtotal')).toBe(1100);
    expect(rows(careful)).toEqual([
      { description: 'Bürostuhl Ergo Plus', quantity: 3, unit_price: 289, amount: 867 },
      { description: 'Schreibtischlampe LED', quantity: 6, unit_price: 42.5, amount: 255 },
      { description: 'Rabatt', quantity: 1, unit_price: -22, amount: -22 },
    ]);
  });

  it('reads "N x" quantities, month-name dates and amounts with a sign before the currency', () => {
    const text =
      'Brightline Software\nInvoice BL-3390 · January 15, 2026\nTeam plan, 12 seats x $20.00   $240.00\nDiscount   -$24.00\nTotal $216.00';
    const careful = read(['dates', 'items', 'numbers'], text);
    expect(careful.value('date')).toBe('2026-01-15');
    expect(rows(careful).map((r) => [r.quantity, r.amount])).toEqual([
      [12, 240],
      [1, -24],
    ]);
    expect(careful.value('tax')).toBe(0);
  });

  it('takes ids from tool results: the confirmed one of several matches, null when nothing was found', () => {
    const text = 'Summit Supplies Ltd\nVAT reg. GB 402 7781 19';
    const matches = JSON.stringify({
      matches: [
        { vendor_id: 'V-1', vat_number: 'GB 118 2210 45' },
        { vendor_id: 'V-2', vat_number: 'GB 402 7781 19' },
      ],
    });
    expect(read([], text, [matches]).value('vendor_id')).toBe('V-1');
    expect(read(['tool-results'], text, [matches]).value('vendor_id')).toBe('V-2');
    expect(read([], text, ['{"found": true, "vendor_id": "V-9"}']).value('vendor_id')).toBe('V-9');
    expect(read(['tool-results'], text, ['{"found": false}']).value('vendor_id')).toBeNull();
    expect(read([], text, ['{"found": false}']).value('vendor_id')).toBeUndefined();
    expect(read(['tool-results'], text).value('vendor_id')).toBeUndefined();
  });

  it('names the sender as printed under the verbatim rule, not the first line', () => {
    const text =
      'LEDGER COPY — Brightwave Media Ltd — received 2026-03-02\n\nFrom: Harbour Coffee Roasters\nTotal: £222.00';
    expect(read([], text).value('name')).toBe('LEDGER COPY');
    expect(read(['verbatim'], text).value('name')).toBe('Harbour Coffee Roasters');
  });

  it('recognises each value rule in the wording the simulated mutator proposes', () => {
    const stated = parseInstructions(
      [
        'Write every date as YYYY-MM-DD.',
        'Write currencies as ISO 4217 codes (GBP, USD, EUR), not symbols.',
        'Write amounts as plain numbers: no thousands separators, a point for decimals.',
        'List every line item, discounts and credits included, negative amounts kept negative.',
        'Take ids from the tool results: null when the tool finds nothing.',
        "Pass names exactly as printed: the sender's name, not the addressee's.",
      ].join('\n'),
    );
    expect(Object.keys(stated.values).sort()).toEqual([...VALUE_FAMILIES].sort());
    expect(parseInstructions('Fill in every field of the answer from the invoice.').values).toEqual({});
  });
});
