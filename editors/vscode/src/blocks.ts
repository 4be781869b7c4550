// The blocks of a patch as the server reads them, and the one a line of the
// patch is on. The server says both: each block is a document symbol (a
// child of its file's) whose range is the whole block, from its file-name
// line to its last marker or fence, and whose selection range is the line
// of its marker or fence; the status lens on that line carries the block's
// number in its arguments. No count of markers and no "last lens above":
// a chat answer's code blocks have no markers, and its file-name line sits
// above the fence that holds the lens, so either rule named another block.
import type { CodeLens, DocumentSymbol, SymbolInformation } from 'vscode-languageclient/node';

/** The block a lens of the server is about: its command's [uri, n]. */
export function blockOf(lens: CodeLens): number | undefined {
  const n = lens.command?.arguments?.[1];
  return typeof n === 'number' ? n : undefined;
}

export interface Block {
  n: number;
  /** The lines of the patch (0-based, both included) the block covers. */
  first: number;
  last: number;
  /** The file it edits (its file symbol's name). */
  path: string;
  /** Its status lens: "#2 applies at src/b.py:2". */
  title: string;
}

/**
 * The blocks of a patch, in order, from the server's document symbols and
 * code lenses. A symbol with no status lens on its selection line is left
 * out: its number is not known.
 */
export function patchBlocks(symbols: (DocumentSymbol | SymbolInformation)[], lenses: CodeLens[]): Block[] {
  const onLine = new Map<number, { n: number; title: string }>();
  for (const l of lenses) {
    const n = blockOf(l);
    // The status lens runs nothing; Apply, Revert and Skip lenses do.
    if (n === undefined || l.command?.command) continue;
    onLine.set(l.range.start.line, { n, title: l.command!.title });
  }
  const out: Block[] = [];
  for (const file of symbols) {
    if (!('selectionRange' in file)) continue; // flat symbols say nothing of blocks
    for (const b of file.children ?? []) {
      const lens = onLine.get(b.selectionRange.start.line);
      if (!lens) continue;
      let last = b.range.end.line;
      // A range that ends at the start of a line leaves that line out.
      if (b.range.end.character === 0 && last > b.range.start.line) last--;
      out.push({ n: lens.n, first: b.range.start.line, last, path: file.name, title: lens.title });
    }
  }
  return out.sort((a, b) => a.n - b.n);
}

/** The block whose lines hold line, if any. */
export function blockUnder(blocks: Block[], line: number): Block | undefined {
  return blocks.find((b) => b.first <= line && line <= b.last);
}
