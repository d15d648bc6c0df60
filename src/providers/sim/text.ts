/** Small text helpers shared by the simulator's roles: words, sentences, content words. */

export interface Segment {
  text: string;
  /** Offsets into the source text: `source.slice(start, end) === text`. */
  start: number;
  end: number;
}

export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

/** Sentences within lines, trimmed, each a verbatim slice of the text. */
export function splitSegments(text: string): Segment[] {
  const segments: Segment[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    for (const match of line.matchAll(/.+?(?:[.!?]+(?=\s|$)|$)/g)) {
      const raw = match[0];
      const lead = raw.length - raw.trimStart().length;
      const trimmed = raw.trim();
      if (trimmed === '') continue;
      const start = lineStart + match.index + lead;
      segments.push({ text: trimmed, start, end: start + trimmed.length });
    }
    lineStart += line.length + 1;
  }
  return segments;
}

export function splitSentences(text: string): string[] {
  return splitSegments(text).map((segment) => segment.text);
}

const STOPWORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from into onto as is are was were be been being it its ' +
    'this that these those there their them they then than so such not no nor do does did done has have had ' +
    'can could should would will shall may might must you your yours we our ours us i me my he she his her ' +
    'who whom which what when where why how all any each every some one two three per via about over under ' +
    'very more most less least also just only out up down off too own same other both few again here'
  ).split(' '),
);

/** Words that describe what an expectation asks for rather than what the output must contain. */
const META_WORDS = new Set(
  (
    'mention mentions mentioned name names named include includes included state states stated give gives ' +
    'given offer offers offered contain contains contained use uses used reference references refer refers ' +
    'describe describes explain explains provide provides ask asks asked output response reply email message ' +
    'text answer clearly explicitly least concrete specific specifically good well way something say says ' +
    'said word words'
  ).split(' '),
);

/** Lowercase words of at least three letters that carry content, without duplicates. */
export function contentWords(text: string, options: { dropMeta?: boolean } = {}): string[] {
  const words = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^a-z0-9']+/)) {
    const word = raw.replace(/'s$/, '').replace(/'/g, '');
    if (word.length < 3 || STOPWORDS.has(word)) continue;
    if (options.dropMeta && META_WORDS.has(word)) continue;
    words.add(word);
  }
  return [...words];
}

/** A crude stem so "billing" meets "billed" and "emails" meets "email". */
export function stem(word: string): string {
  const lower = word.toLowerCase();
  for (const suffix of ['ing', 'ed', 'es', 's', 'ly']) {
    if (lower.length > suffix.length + 3 && lower.endsWith(suffix)) return lower.slice(0, -suffix.length);
  }
  return lower;
}

export function stemsOf(text: string): Set<string> {
  return new Set(contentWords(text).map(stem));
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

export function normaliseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Strip matching quotes or backticks around a value. */
export function unquote(text: string): string {
  const trimmed = text.trim();
  const match = /^["'“‘`](.*)["'”’`]$/s.exec(trimmed);
  return match ? (match[1] as string).trim() : trimmed;
}

/** Every quoted or backticked string in a text. */
export function quotedStrings(text: string): string[] {
  return [...text.matchAll(/["“`]([^"”`\n]{1,60})["”`]|(?<![A-Za-z])'([^'\n]{1,60})'(?![A-Za-z])/g)].map(
    (m) => (m[1] ?? m[2] ?? '').trim(),
  );
}
