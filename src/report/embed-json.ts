/**
 * JSON that is safe inside `<script type="application/json">`: every `<` becomes `\u003c`,
 * so no output, prompt or hypothesis can close the block (`</script>`) or open a comment,
 * and the browser's JSON.parse still reads the exact original text.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
