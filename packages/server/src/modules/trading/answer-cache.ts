/**
 * Serialised answers, built once per (key, version) and served as the same UTF-8 JSON bytes until
 * the data behind them changes (no per-request serialisation or string encoding). Bounded: the oldest entry goes first once `maxEntries` is reached.
 */
export class AnswerCache {
  private readonly entries = new Map<string, { version: string; json: Buffer }>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, version: string): Buffer | undefined {
    const entry = this.entries.get(key);
    return entry && entry.version === version ? entry.json : undefined;
  }

  set(key: string, version: string, json: Buffer): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { version, json });
  }
}
