/**
 * What a reply's seed is drawn from: the request's messages, except that a mutator request's
 * `tried` list (and the section of its prose listing it) is left out. What other lineages tried
 * decides which proposals the simulated mutator skips, not its draws, so a run's proposals change
 * only where one would repeat an attempt (docs/sim.md "Determinism").
 */
import { triedSection } from '../../protocol/mutation.js';

/** The message as the loop would have written it with an empty `tried`. */
export function withoutTried(message: string): string {
  for (const match of message.matchAll(/```json\n([\s\S]*?)\n```/g)) {
    let block: unknown;
    try {
      block = JSON.parse(match[1] as string);
    } catch {
      continue;
    }
    if (typeof block !== 'object' || block === null || !('tried' in block)) continue;
    const { tried, ...rest } = block as { tried: unknown };
    if (!Array.isArray(tried) || !tried.every((t) => typeof t === 'string')) continue;
    const section = `${triedSection(tried).join('\n')}\n`;
    return message
      .replace(match[0], `\`\`\`json\n${JSON.stringify(rest, null, 2)}\n\`\`\``)
      .replace(section, '');
  }
  return message;
}
