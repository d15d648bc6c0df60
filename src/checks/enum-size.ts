/**
 * The bound on a JSON Schema `enum` (docs/experiment.md, "Limits"). ajv checks the meta-schema's
 * `uniqueItems` on an enum by comparing every value with every other, so 300,000 values kept
 * validate busy for minutes; the APIs accept far fewer (OpenAI: 1,000 enum values in a schema).
 */
export const MAX_ENUM_VALUES = 1000;

/** The key path of the first `enum` with more than MAX_ENUM_VALUES values, walked without recursion. */
export function findOversizedEnum(schema: unknown): { path: (string | number)[]; count: number } | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: schema, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: (string | number)[] };
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
      continue;
    }
    const entries = Object.entries(value);
    const values = (value as Record<string, unknown>)['enum'];
    if (Array.isArray(values) && values.length > MAX_ENUM_VALUES)
      return { path: [...path, 'enum'], count: values.length };
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string, unknown];
      if (key !== 'enum') stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}
