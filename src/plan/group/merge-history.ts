import type { GroupingUnit } from '../drafts.js';
import type { Cluster } from './cluster.js';

/** A cluster as replayed: its members, and the tool name the lock file gives it. */
type Replayed = { units: GroupingUnit[]; locked?: string };

/** The clusters once the natural merges are done, and every later merge with the state it leaves. */
export class MergeHistory {
  private readonly steps: Array<{ keep: number; drop: number; tokens: number; count: number }> = [];

  constructor(
    private readonly start: Cluster[],
    private readonly startTokens: number,
    private readonly maxTools: number,
  ) {}

  record(keep: number, drop: number, tokens: number, count: number): void {
    this.steps.push({ keep, drop, tokens, count });
  }

  /** State n: the clusters after the first n recorded merges. */
  get lastState(): number {
    return this.steps.length;
  }

  /** The clusters of the last state: each merge leaves one fewer. */
  get lastCount(): number {
    return this.start.length - this.steps.length;
  }

  /** The first state that fits the budget and the tool limit (the last state when none does). */
  stateAt(tokenBudget: number): number {
    const fits = (tokens: number, count: number) => tokens <= tokenBudget && count <= this.maxTools;
    if (fits(this.startTokens, this.start.length)) return 0;
    const index = this.steps.findIndex((step) => fits(step.tokens, step.count));
    return index < 0 ? this.steps.length : index + 1;
  }

  /** The clusters at a state. */
  replay(stop: number): Array<Replayed> {
    const clusters: Array<Replayed | undefined> = this.start.map((cluster) => ({
      units: cluster.units,
      ...(cluster.locked ? { locked: cluster.locked } : {}),
    }));
    for (const { keep, drop } of this.steps.slice(0, stop)) {
      const a = clusters[keep] as Replayed;
      const b = clusters[drop] as Replayed;
      const locked = a.locked ?? b.locked;
      clusters[keep] = { units: [...a.units, ...b.units], ...(locked ? { locked } : {}) };
      clusters[drop] = undefined;
    }
    return clusters.filter((cluster): cluster is Replayed => cluster !== undefined);
  }
}
