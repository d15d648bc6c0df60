/** Keeps secrets out of anything a person or a file might see. */

const KEY_LIKE = /\b(sk-[A-Za-z0-9_*-]{6,}|sk-ant-[A-Za-z0-9_*-]{6,})/g;

/** Replaces every given secret and anything shaped like an API key with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would blank out ordinary words; real keys are long.
    if (secret !== undefined && secret.length >= 8) out = out.split(secret).join('[redacted]');
  }
  return out.replace(KEY_LIKE, '[redacted]');
}

/** A server-supplied message cut to a readable length. */
export function clip(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The values of an environment's variables that hold secrets by their names (keys, tokens, passwords). */
export function secretValues(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value !== undefined && /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i.test(name) ? [value] : [],
  );
}
