/**
 * A list `/recall`'s completions read from memory. Pi's completion menu keeps the text it was
 * opened for until the completion answers, and an Enter pressed meanwhile applies that stale item
 * ("/recall model " and Enter became "/recall mmodel "); so a completion never waits on the disk.
 * It takes the last list read, and starts the next read.
 */
export class RememberedList {
  /** The last list read: empty before the first read ends, or when a read fails. */
  list: string[] = [];
  private reading: Promise<void> | undefined;

  constructor(private readonly read: () => Promise<string[]>) {}

  /** Reads the list again, unless a read is under way. */
  refresh(): void {
    this.reading ??= this.read()
      .then(
        (list) => {
          this.list = list;
        },
        () => {
          // Completions are best effort: a tag database that cannot be opened completes nothing.
          this.list = [];
        },
      )
      .finally(() => {
        this.reading = undefined;
      });
  }
}
