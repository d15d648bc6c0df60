/**
 * What the simulated generator writes about: the topic, the audience and any labelled data
 * lines ("Ticket: …") of the rendered prompt, so outputs differ from case to case.
 */

export interface PromptDetails {
  topic: string;
  audience: string;
  /** The audience without its trailing qualifiers ("CTO" from "CTO at a 50-person SaaS"). */
  role: string;
  genre: 'email' | 'prose';
  /** Labelled lines (lowercased label → value). */
  labels: Record<string, string>;
  /** The text the prompt asks about (labelled values, else the whole prompt). */
  data: string;
}

const TOPIC_LABELS = ['topic', 'subject', 'product', 'about', 'theme', 'title', 'offer'];
const AUDIENCE_LABELS = ['audience', 'recipient', 'reader', 'persona', 'customer', 'prospect', 'to', 'role'];
const EMAIL = /\b(?:e-?mails?|outreach|cold|follow-up|newsletter|linkedin message|dm)\b/i;
// Headers of instruction lines, not data about the case.
const NOT_DATA_LABELS = new Set([
  'important',
  'note',
  'rules',
  'format',
  'output',
  'instructions',
  'requirements',
]);
const END = '(?=[.,;:!?](?:\\s|$)|\\s+(?:in|under|within|using|and keep|that)\\s|\\n|$)';
// "Summarize the benefits of X for Y": the task verb and its object noun are not the topic.
const TASK_LEAD =
  /^(?:please\s+)?(?:write|draft|compose|create|summari[sz]e|explain|describe|outline|list|discuss|give|produce|prepare)\s+(?:(?:a|an|the|me|us|some|short|brief|quick|friendly|formal|cold|follow-up|concise)\s+)*(?:(?:e-?mail|message|post|summary|note|paragraph|overview|explanation|description|answer|reply|response|article|tweet|letter|pitch)s?\s+(?:of|on|about|for)\s+)?/i;

function labelledLines(prompt: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const match of prompt.matchAll(/^\s*([A-Za-z][A-Za-z _-]{0,30}):[ \t]*(\S.*)$/gm)) {
    const label = (match[1] as string).trim().toLowerCase();
    if (!NOT_DATA_LABELS.has(label)) labels[label] = (match[2] as string).trim();
  }
  return labels;
}

function firstLabel(labels: Record<string, string>, names: string[]): string | undefined {
  for (const name of names) if (labels[name]) return labels[name];
  return undefined;
}

function firstLine(prompt: string): string {
  return prompt.split('\n').find((line) => line.trim() !== '') ?? '';
}

function topicFromLead(lead: string | undefined): string {
  const words =
    (lead ?? '')
      .split(/\s+(?:for|to|aimed at|targeting)\s/i)[0]
      ?.trim()
      .split(/\s+/) ?? [];
  return words.slice(0, 8).join(' ') || 'this';
}

export function extractDetails(prompt: string): PromptDetails {
  const labels = labelledLines(prompt);
  const line = firstLine(prompt);
  const about = /\babout\s+(.+?)(?=\s+(?:for|to|aimed at|targeting)\s|[.,;:!?](?:\s|$)|$)/i.exec(line);
  const afterTopic = about ? line.slice(about.index + about[0].length) : line.replace(TASK_LEAD, '');
  const forWhom = new RegExp(`\\b(?:for|to|aimed at|targeting)\\s+(?:an?\\s+|the\\s+)?(.+?)${END}`, 'i').exec(
    afterTopic,
  );
  const lead = about ? undefined : new RegExp(`^(.+?)${END}`, 'i').exec(line.replace(TASK_LEAD, ''));
  const topic = firstLabel(labels, TOPIC_LABELS) ?? about?.[1]?.trim() ?? topicFromLead(lead?.[1]);
  const audience = firstLabel(labels, AUDIENCE_LABELS) ?? forWhom?.[1]?.trim() ?? 'your team';
  const role = audience.split(/\s+(?:at|in|from|of|who|with)\s+|,/)[0]?.trim() || audience;
  const labelled = Object.values(labels).join(' ');
  return {
    topic: topic === '' ? 'this' : topic,
    audience,
    role,
    genre: EMAIL.test(prompt) ? 'email' : 'prose',
    labels,
    data: labelled !== '' ? labelled : prompt,
  };
}
