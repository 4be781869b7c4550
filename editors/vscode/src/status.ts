// The status bar item for the active patch: "fsrb: 7/8 blocks apply",
// "fsrb: 2/3 applied", "fsrb: applied"; with skipped blocks, the server's
// own line: "fsrb: ready: 4 of 5 blocks, #3 skipped". The server has no status
// notification: the states come from its `fsrb.status` command (or, from a
// server without it, its code lenses), asked for again whenever the patch's
// diagnostics change, the patch is edited, or a file is edited or saved
// (the patch may now be applied, or no longer).
import * as vscode from 'vscode';
import { refreshCodeLenses } from './lenses';
import { blockOf } from './blocks';
import { CodeLens, CodeLensRequest, ExecuteCommandRequest, LanguageClient, State } from 'vscode-languageclient/node';

const searchMarker = /^\s*(?:<{5,9}\s*(?:SEARCH>?|NEW_FILE)|-{3,}\s*SEARCH)\s*$/;

interface Counts {
  total: number;
  ready: number;
  applied: number;
  problems: number;
  skipped?: number;
  state?: ServerStatus['state'];
  summary?: string; // the server's: "ready: 4 of 5 blocks, #3 skipped"
}

// The answer of the server's `fsrb.status` command.
interface ServerStatus {
  state: 'arriving' | 'problems' | 'ready' | 'partly-applied' | 'applied' | 'skipped' | 'empty';
  summary?: string;
  skipped?: number[];
  blocks: { number: number; path: string; state: 'ready' | 'applied' | 'problem' | 'arriving' | 'skipped'; line?: number }[];
}

export function countStates(states: string[]): Counts {
  const n = (s: string) => states.filter((x) => x === s).length;
  return { total: states.length, ready: n('ready'), applied: n('applied'), problems: n('problem'), skipped: n('skipped') };
}

export function appliedSummary(applied: number, total: number): string {
  return applied === total ? 'fsrb: applied' : `fsrb: ${applied}/${total} applied`;
}

export function summary(applying: number, total: number): string {
  if (total === 0) return 'fsrb: no blocks';
  return `fsrb: ${applying}/${total} ${total === 1 ? 'block applies' : 'blocks apply'}`;
}

export class BlockStatus implements vscode.Disposable {
  private item = vscode.window.createStatusBarItem('fsrb.status', vscode.StatusBarAlignment.Left, 50);
  private client: LanguageClient | undefined;
  private missing = false;
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;
  private subs: vscode.Disposable[] = [];

  constructor(private isPatch: (d: vscode.TextDocument | undefined) => boolean) {
    this.item.name = 'fsrb';
    this.subs.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.languages.onDidChangeDiagnostics((e) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && e.uris.some((u) => u.toString() === active)) {
          this.refresh();
          // The lenses say "#2 2 matches" until asked again: ask again.
          if (this.isPatch(vscode.window.activeTextEditor?.document)) refreshCodeLenses(300);
        }
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document) this.refresh(400);
        else if (e.document.uri.scheme === 'file' && e.contentChanges.length > 0) this.targetsChanged();
      }),
      vscode.workspace.onDidSaveTextDocument(() => this.targetsChanged()),
      vscode.workspace.onDidCreateFiles(() => this.targetsChanged()),
      vscode.workspace.onDidDeleteFiles(() => this.targetsChanged()),
    );
  }

  // A file a patch may name changed (an edit, "Apply all", a save): what the
  // visible patches say about it may have changed without their own
  // diagnostics changing (a patch applied with none before and none after).
  private targetsChanged() {
    if (!vscode.window.visibleTextEditors.some((e) => this.isPatch(e.document))) return;
    this.refresh(400);
    refreshCodeLenses(500);
  }

  setClient(c: LanguageClient | undefined) {
    this.client = c;
    this.missing = false;
    this.refresh();
  }

  serverMissing() {
    this.missing = true;
    this.refresh();
  }

  /** The server's code lenses of a document ([] when it cannot answer). */
  private async lenses(uri: vscode.Uri): Promise<CodeLens[]> {
    const c = this.client;
    if (!c || c.state !== State.Running) return [];
    try {
      const res = await c.sendRequest(CodeLensRequest.type, { textDocument: { uri: c.code2ProtocolConverter.asUri(uri) } });
      return res ?? [];
    } catch {
      return [];
    }
  }

  refresh(delay = 100) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), delay);
  }

  private async update() {
    const gen = ++this.generation;
    const doc = vscode.window.activeTextEditor?.document;
    if (!this.isPatch(doc)) {
      this.item.hide();
      return;
    }
    if (this.missing) {
      this.show('$(error) fsrb: server not found', 'fsrb-lsp was not found: set fsrb.server.path', {
        title: 'Open settings', command: 'workbench.action.openSettings', arguments: ['fsrb.server.path'],
      });
      return;
    }
    if (!this.client || this.client.state !== State.Running) {
      this.show('fsrb: starting…', 'The fsrb language server is starting', { title: 'Show log', command: 'fsrb.showServerLog' });
      return;
    }
    const counts = (await this.fromServer(doc!.uri)) ?? (await this.fromLenses(doc!));
    if (gen !== this.generation) return; // a newer update is under way
    const { total, ready, applied, problems } = counts;
    const uri = doc!.uri.toString();
    if (counts.state === 'empty') {
      // No block at all. A Markdown answer is mostly prose: nothing to
      // show. A patch the user opened to apply (the clipboard's) says
      // plainly that it holds no edit.
      if (doc!.languageId !== 'fsrb') {
        this.item.hide();
        return;
      }
      this.show('fsrb: no edit', `${counts.summary ?? 'this text holds no edit'}: nothing to apply`, { title: 'Show problems', command: 'workbench.actions.view.problems' });
      return;
    }
    if (counts.skipped && counts.summary) {
      this.showSkipped(counts, uri);
      return;
    }
    if (total > 0 && applied === total) {
      this.show(
        'fsrb: applied',
        `Every block of this patch is applied (${total} ${total === 1 ? 'block' : 'blocks'}): click to revert them all`,
        { title: 'Revert all blocks', command: 'fsrb.revertAll', arguments: [uri] },
      );
      return;
    }
    if (applied > 0) {
      const rest = problems === 0 && ready === total - applied;
      this.show(
        appliedSummary(applied, total),
        rest
          ? `${applied} of ${total} blocks are applied; the other ${total - applied} validate: click to apply them`
          : `${applied} of ${total} blocks are applied; ${problems || total - applied - ready} do not apply: click for the Problems panel`,
        rest ? { title: 'Apply all blocks', command: 'fsrb.applyAll', arguments: [uri] } : { title: 'Show problems', command: 'workbench.actions.view.problems' },
      );
      if (!rest) this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      return;
    }
    const all = total > 0 && ready === total;
    this.show(
      summary(ready, total),
      all ? 'Every block validates: click to apply them all (all or nothing)' : `${total - ready} of ${total} blocks do not apply: click for the Problems panel`,
      all ? { title: 'Apply all blocks', command: 'fsrb.applyAll', arguments: [uri] } : { title: 'Show problems', command: 'workbench.actions.view.problems' },
    );
    this.item.backgroundColor = all || total === 0 ? undefined : new vscode.ThemeColor('statusBarItem.warningBackground');
  }

  /** The counts from the server's `fsrb.status` command, when it has one. */
  private async fromServer(uri: vscode.Uri): Promise<Counts | undefined> {
    const c = this.client;
    if (!c || c.state !== State.Running) return undefined;
    const commands = c.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
    if (!commands.includes('fsrb.status')) return undefined;
    try {
      const res = (await c.sendRequest(ExecuteCommandRequest.type, {
        command: 'fsrb.status',
        arguments: [c.code2ProtocolConverter.asUri(uri)],
      })) as ServerStatus | null;
      if (!res || !Array.isArray(res.blocks)) return undefined;
      return { ...countStates(res.blocks.map((b) => b.state)), state: res.state, summary: res.summary };
    } catch {
      return undefined;
    }
  }

  /**
   * The counts from the server's code lenses: a status lens on every block,
   * an "Apply" lens on each block that applies, a "Revert" lens on each
   * applied one, each with the block's number in its arguments. If that
   * request fails, from the diagnostics and the SEARCH markers.
   */
  private async fromLenses(doc: vscode.TextDocument): Promise<Counts> {
    const lenses = await this.lenses(doc.uri);
    if (lenses.length > 0) {
      const blocks = new Set<number>();
      const ready = new Set<number>();
      const applied = new Set<number>();
      for (const l of lenses) {
        const n = blockOf(l);
        if (n === undefined) continue;
        blocks.add(n);
        if (l.command?.command === 'fsrb.applyBlock') ready.add(n);
        if (l.command?.command === 'fsrb.revertBlock') applied.add(n);
      }
      const total = blocks.size;
      return { total, ready: ready.size, applied: applied.size, problems: total - ready.size - applied.size };
    }
    // Fallback: SEARCH markers in the text, minus the blocks named by an error.
    const total = doc.getText().split(/\r?\n/).filter((l) => searchMarker.test(l)).length;
    const bad = new Set<number>();
    for (const d of vscode.languages.getDiagnostics(doc.uri)) {
      const m = /block #(\d+)/.exec(d.message);
      if (d.source === 'fsrb' && d.severity === vscode.DiagnosticSeverity.Error && m) bad.add(Number(m[1]));
    }
    return { total, ready: Math.max(0, total - bad.size), applied: 0, problems: bad.size };
  }

  // A patch with skipped blocks: the server's line, and what a click does
  // with the blocks still included.
  private showSkipped(counts: Counts, uri: string) {
    const text = `fsrb: ${counts.summary}`;
    switch (counts.state) {
      case 'ready':
      case 'partly-applied':
        this.show(text, 'The blocks not skipped validate: click to apply them (all or nothing); "Include block" puts a skipped one back',
          { title: 'Apply all blocks', command: 'fsrb.applyAll', arguments: [uri] });
        return;
      case 'applied':
        this.show(text, 'Every block not skipped is applied: click to revert them all',
          { title: 'Revert all blocks', command: 'fsrb.revertAll', arguments: [uri] });
        return;
      case 'skipped':
        this.show(text, 'Every block is skipped: "Include block" puts one back', { title: 'Show problems', command: 'workbench.actions.view.problems' });
        return;
    }
    this.show(text, 'Some block not skipped does not apply: click for the Problems panel', { title: 'Show problems', command: 'workbench.actions.view.problems' });
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  }

  private show(text: string, tooltip: string, command: vscode.Command) {
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.command = command;
    this.item.backgroundColor = undefined;
    this.item.show();
  }

  dispose() {
    if (this.timer) clearTimeout(this.timer);
    this.subs.forEach((s) => s.dispose());
    this.item.dispose();
  }
}
