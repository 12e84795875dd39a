/**
 * Undo/redo over immutable snapshots. A snapshot of a capped graph (≤ 1000 nodes, ≤ 5000 edges) is a few tens of
 * KB, so storing whole snapshots is simpler and safer than inverse operations; the depth is capped all the same.
 */
export class History<T> {
  private past: T[] = [];
  private future: T[] = [];

  constructor(
    private present: T,
    private readonly limit = 200,
  ) {}

  get current(): T {
    return this.present;
  }
  get canUndo(): boolean {
    return this.past.length > 0;
  }
  get canRedo(): boolean {
    return this.future.length > 0;
  }

  /** Records a new state; whatever could be redone is dropped, as in every editor. */
  push(next: T) {
    this.past.push(this.present);
    if (this.past.length > this.limit) this.past.shift();
    this.present = next;
    this.future = [];
  }

  undo(): T | undefined {
    const prev = this.past.pop();
    if (prev === undefined) return undefined;
    this.future.push(this.present);
    this.present = prev;
    return prev;
  }

  redo(): T | undefined {
    const next = this.future.pop();
    if (next === undefined) return undefined;
    this.past.push(this.present);
    this.present = next;
    return next;
  }

  /** Replaces the whole history (e.g. after a link is opened): nothing to undo. */
  reset(state: T) {
    this.past = [];
    this.future = [];
    this.present = state;
  }
}
