/**
 * `models.judge` may be one judge or a panel (docs/design/judge-reliability.md). Everything that
 * walks the model entries — the pool, keys, pings, the plan — asks here for the entries a role
 * really calls, so a panel's members are seen wherever a single judge would be.
 */
import type { KeyPath } from './key-path.js';
import { isProgramEntry } from './program-entry.js';
import { ROLES, type Role } from './roles.js';
import type { JudgeConfig, JudgeEntry, JudgePanel, ModelEntry } from './schema.js';

export function isPanel(config: JudgeConfig): config is JudgePanel {
  return 'panel' in config;
}

/** The judges behind a role's entry: the panel's members, or the entry alone. */
export function judgeMembers(config: JudgeConfig): JudgeEntry[] {
  return isPanel(config) ? [...config.panel] : [config];
}

/** One model a role calls; `member` is its place in the judge's panel. */
export interface RoleModel<R extends Role = Role> {
  role: R;
  member?: number;
  entry: ModelEntry;
  /** Where it sits in experiment.yaml. */
  path: KeyPath;
}

/** Every model entry of these roles, panel members one by one; programs are not models. */
export function roleModels<R extends Role = Role>(
  models: Partial<Record<Role, JudgeConfig | undefined>>,
  roles: readonly R[] = ROLES as readonly Role[] as readonly R[],
): RoleModel<R>[] {
  const out: RoleModel<R>[] = [];
  for (const role of roles) {
    const config = models[role];
    if (config === undefined) continue;
    if (isPanel(config)) {
      config.panel.forEach((entry, member) => {
        if (!isProgramEntry(entry))
          out.push({ role, member, entry, path: ['models', role, 'panel', member] });
      });
    } else if (!isProgramEntry(config)) {
      out.push({ role, entry: config, path: ['models', role] });
    }
  }
  return out;
}

/** `anthropic/claude-sonnet-4-5`, `sim`, or `program: node my-judge.mjs`. */
export function entryLabel(entry: JudgeEntry): string {
  if (isProgramEntry(entry)) return `program: ${entry.command.join(' ')}`;
  return entry.model ? `${entry.provider}/${entry.model}` : entry.provider;
}

/** `judge`, or `judge[1]` for the second member of a panel: the pool's and the plan's name for it. */
export function memberName(role: Role, member: number | undefined): string {
  return member === undefined ? role : `${role}[${member}]`;
}
