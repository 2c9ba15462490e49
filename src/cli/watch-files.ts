import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** How long the files must stay quiet before a change runs the command again: editors save in several writes. */
const SETTLE_MS = 150;

/**
 * One run of the watched command. Told which files changed since the run before (none the first time); returns the
 * files this run depended on, as absolute paths (a missing one is watched for appearing).
 */
export type WatchCycle = (changed: string[]) => Promise<string[]>;

/**
 * Runs `cycle`, then again each time a file it depended on changes content, until `signal` aborts; a run under way
 * finishes first. Watches the files' folders, not the files: editors save by renaming a new file over the old one,
 * which ends a watch on the file itself. A change is judged by content against what the files held when the run
 * started, so a change made during a run is not lost and a save that leaves a file as it was runs nothing.
 */
export async function watchFiles(cycle: WatchCycle, initial: string[], signal: AbortSignal): Promise<void> {
  const folders = new FolderWatch(() => wakeUp());
  let wake: (() => void) | undefined;
  let pending = false;
  const wakeUp = () => {
    pending = true;
    wake?.();
  };
  signal.addEventListener('abort', wakeUp, { once: true });
  const nextEvent = () =>
    new Promise<void>((resolve) => {
      if (pending) resolve();
      else wake = resolve;
    }).then(() => {
      pending = false;
      wake = undefined;
    });

  let files = initial;
  let changed: string[] = [];
  folders.watch(files);
  try {
    while (!signal.aborted) {
      const before = await contentsOf(files);
      const used = await cycle(changed);
      for (const [file, content] of await contentsOf(used.filter((file) => !before.has(file)))) before.set(file, content);
      files = used;
      folders.watch(files);
      changed = [];
      while (!signal.aborted && changed.length === 0) {
        await nextEvent();
        if (signal.aborted) break;
        const now = await contentsOf(files);
        changed = files.filter((file) => now.get(file) !== before.get(file));
      }
    }
  } finally {
    folders.close();
  }
}

/** The folders of a set of files, watched; any event on one of the files calls `onEvent` once they settle. */
class FolderWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private files = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly onEvent: () => void) {}

  watch(files: string[]): void {
    this.files = new Set(files);
    const folders = new Set(files.map((file) => path.dirname(file)));
    for (const [folder, watcher] of this.watchers)
      if (!folders.has(folder)) {
        watcher.close();
        this.watchers.delete(folder);
      }
    for (const folder of folders) {
      if (this.watchers.has(folder)) continue;
      try {
        const watcher = watch(folder, (_type, name) => {
          // Some platforms do not name the file: then any event in the folder counts.
          if (name === null || this.files.has(path.join(folder, name.toString()))) this.settle();
        });
        // A folder removed while watched: the files in it read as missing, and a new run re-establishes the watch.
        watcher.on('error', () => {
          watcher.close();
          this.watchers.delete(folder);
          this.settle();
        });
        this.watchers.set(folder, watcher);
      } catch {
        // A folder that does not exist (yet): its files read as missing until a run finds them.
      }
    }
  }

  close(): void {
    clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private settle(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.onEvent, SETTLE_MS);
  }
}

/** Each file's content hash, or `missing`. */
async function contentsOf(files: string[]): Promise<Map<string, string>> {
  const hashes = await Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(file).catch(() => undefined);
      return [file, bytes ? createHash('sha256').update(bytes).digest('hex') : 'missing'] as const;
    }),
  );
  return new Map(hashes);
}
