import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * How long the files must stay quiet before a change runs the command again: editors save in several writes, most
 * within a few milliseconds. Short, because it is part of every answer to a save; a save slower than this is not
 * misreported (see WatchCycle's `savedSince`).
 */
const SETTLE_MS = 40;

/**
 * How long a run that failed waits before its failure is believed: a file written in place is empty or half there
 * between its truncation and its last write, which a loaded machine can stretch past SETTLE_MS. A failure is shown
 * this much later; a success is not delayed.
 */
const FAILED_SAVE_GRACE_MS = 250;

/**
 * One run of the watched command. Told which files changed since the run before (none the first time); returns the
 * files this run depended on, as absolute paths (a missing one is watched for appearing). `savedSince`, for a run that
 * failed, tells (after FAILED_SAVE_GRACE_MS) whether a file the run read has changed since the watch looked at it
 * before the run: a run that read a save still being written is then not reported, and the watch runs again on what
 * is there now.
 */
export type WatchCycle = (changed: string[], savedSince: () => Promise<boolean>) => Promise<string[]>;

/**
 * Runs `cycle`, then again each time a file it depended on changes content, until `signal` aborts; a run under way
 * finishes first. Watches the files' folders, not the files: editors save by renaming a new file over the old one,
 * which ends a watch on the file itself. A change is judged by content against what the files held just before the
 * run started (as read to see the change that started it), so a change made during a run is not lost and a save that
 * leaves a file as it was runs nothing.
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
  // Read once here; after that, the contents that showed a change are the next run's starting point.
  let before = await contentsOf(files);
  try {
    while (!signal.aborted) {
      const read = files;
      const savedSince = async () => {
        await new Promise((resolve) => setTimeout(resolve, FAILED_SAVE_GRACE_MS));
        const now = await contentsOf(read);
        return read.some((file) => !sameContent(now.get(file), before.get(file)));
      };
      const used = await cycle(changed, savedSince);
      for (const [file, content] of await contentsOf(used.filter((file) => !before.has(file)))) before.set(file, content);
      files = used;
      folders.watch(files);
      // A save between the run's report and the new watches reached no watcher: look once before waiting.
      pending = true;
      changed = [];
      while (!signal.aborted && changed.length === 0) {
        await nextEvent();
        if (signal.aborted) break;
        const now = await contentsOf(files);
        changed = files.filter((file) => !sameContent(now.get(file), before.get(file)));
        if (changed.length > 0) before = now;
      }
    }
  } finally {
    folders.close();
  }
}

/** How often folders that do not exist are looked for: no folder is there to tell when they come back. */
const MISSING_FOLDER_POLL_MS = 1000;

/**
 * The folders of a set of files, watched; any event on one of the files calls `onEvent` once they settle. Folders
 * are watched afresh for every set: a folder deleted and made again (a branch switch) is a new folder, which a watch
 * on the old one never hears of. Missing folders are polled until one appears.
 */
class FolderWatch {
  private readonly watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;

  constructor(private readonly onEvent: () => void) {}

  watch(files: string[]): void {
    this.unwatch();
    const watched = new Set(files);
    let missing = false;
    for (const folder of new Set(files.map((file) => path.dirname(file)))) {
      try {
        const watcher = watch(folder, (_type, name) => {
          // Some platforms do not name the file: then any event in the folder counts.
          if (name === null || watched.has(path.join(folder, name.toString()))) this.settle();
        });
        // A folder removed while watched: its files now read as missing, which a run reports.
        watcher.on('error', () => this.settle());
        this.watchers.push(watcher);
      } catch {
        missing = true;
      }
    }
    if (missing) this.poll = setInterval(() => this.settle(), MISSING_FOLDER_POLL_MS);
  }

  close(): void {
    clearTimeout(this.timer);
    this.unwatch();
  }

  /** Stops watching, but lets an event already heard settle: a change made during a run must still count. */
  private unwatch(): void {
    clearInterval(this.poll);
    for (const watcher of this.watchers.splice(0)) watcher.close();
  }

  private settle(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.onEvent, SETTLE_MS);
  }
}

/**
 * Each file's content, or undefined when it is missing. Kept whole and compared byte for byte: a hash of GitHub's
 * 13 MB description took longer than reading it, and every answer to a save waited for it.
 */
async function contentsOf(files: string[]): Promise<Map<string, Buffer | undefined>> {
  const contents = await Promise.all(files.map(async (file) => [file, await readFile(file).catch(() => undefined)] as const));
  return new Map(contents);
}

function sameContent(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.equals(b);
}
