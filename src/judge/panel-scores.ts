/**
 * The arithmetic of a judge panel (docs/design/judge-reliability.md), pure: the members' scores for
 * one output and criterion become one (their median or mean), and their agreement is Krippendorff's
 * alpha (ordinal) over every (output, criterion) they all scored.
 */
import type { Aggregate } from '../experiment/schema.js';
import type { JudgePanelRecord, PanelMemberScores } from '../scoring/types.js';
import { ordinalAlpha, type RatingUnit } from '../stats/krippendorff.js';
import { mean } from './judge-scores.js';

/** What a panel judging carries to the evaluation record, before the agreement is computed. */
export interface PanelScores {
  aggregate: Aggregate;
  members: PanelMemberScores[];
}

export function aggregateScores(values: readonly number[], aggregate: Aggregate): number {
  if (aggregate === 'mean') return mean(values);
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const outputKey = (caseId: string, sample: number) => `${caseId}#${sample}`;

/** One unit per (output, criterion): each member's score, null where a member has none. */
function ratingUnits(members: readonly PanelMemberScores[], criteria: readonly string[]): RatingUnit[] {
  const byMember = members.map(
    (m) => new Map(m.scores.map((s) => [outputKey(s.caseId, s.sample), s.criteria])),
  );
  const outputs = [...new Set(members.flatMap((m) => m.scores.map((s) => outputKey(s.caseId, s.sample))))];
  return outputs.flatMap((key) =>
    criteria.map((criterion) => byMember.map((scores) => scores.get(key)?.[criterion] ?? null)),
  );
}

/** The record evaluation.json keeps: the members' scores with their agreement. */
export function panelRecord(panel: PanelScores, criteria: readonly string[]): JudgePanelRecord {
  return {
    aggregate: panel.aggregate,
    members: panel.members,
    alpha: ordinalAlpha(ratingUnits(panel.members, criteria)),
    alphaByCriterion: Object.fromEntries(
      criteria.map((criterion) => [criterion, ordinalAlpha(ratingUnits(panel.members, [criterion]))]),
    ),
  };
}

/** Two judgings of one panel (a screened candidate's stages) as one. */
export function combinePanels(a: PanelScores, b: PanelScores): PanelScores {
  return {
    aggregate: a.aggregate,
    members: a.members.map((member, i) => ({
      label: member.label,
      scores: [...member.scores, ...(b.members[i]?.scores ?? [])],
    })),
  };
}
