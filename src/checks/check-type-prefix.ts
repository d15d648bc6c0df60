/** The `not-` prefix every check type takes (docs/design/checks.md), read in one place. */
export const NEGATION = 'not-';

/** `not-icontains-any` → `{ base: 'icontains-any', negated: true }`. */
export function parseCheckType(type: string): { base: string; negated: boolean } {
  return type.startsWith(NEGATION)
    ? { base: type.slice(NEGATION.length), negated: true }
    : { base: type, negated: false };
}
