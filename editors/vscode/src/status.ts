// The status bar item "fsrb: 7/8 blocks apply" for the active patch. The
// server has no status notification: the counts come from its code lenses
// ("#N <status>" on every block, and an "Apply" lens on each block that
// applies), asked for again whenever the patch's diagnostics change; if that
// request fails, from the diagnostics and the SEARCH markers.
import * as vscode from 'vscode';
import { refreshCodeLenses } from './lenses';
import { CodeLens, CodeLensRequest, LanguageClient, State } from 'vscode-languageclient/node';

const blockTitle = /^#(\d+)\b/;
const searchMarker = /^\s*(?:<{5,9}\s*(?:SEARCH>?|NEW_FILE)|-{3,}\s*SEARCH)\s*$/;

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
      }),
    );
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
  async lenses(uri: vscode.Uri): Promise<CodeLens[]> {
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
    let total = 0;
    let applying = 0;
    const lenses = await this.lenses(doc!.uri);
    if (gen !== this.generation) return; // a newer update is under way
    const numbered = lenses.filter((l) => blockTitle.test(l.command?.title ?? ''));
    if (numbered.length > 0 || lenses.length > 0) {
      total = numbered.length;
      const ok = new Set<number>();
      for (const l of lenses) {
        if (l.command?.command === 'fsrb.applyBlock' && typeof l.command.arguments?.[1] === 'number') ok.add(l.command.arguments[1]);
      }
      applying = ok.size;
    } else {
      // Fallback: SEARCH markers in the text, minus the blocks named by an error.
      total = doc!.getText().split(/\r?\n/).filter((l) => searchMarker.test(l)).length;
      const bad = new Set<number>();
      for (const d of vscode.languages.getDiagnostics(doc!.uri)) {
        const m = /block #(\d+)/.exec(d.message);
        if (d.source === 'fsrb' && d.severity === vscode.DiagnosticSeverity.Error && m) bad.add(Number(m[1]));
      }
      applying = Math.max(0, total - bad.size);
    }
    const all = total > 0 && applying === total;
    this.show(
      summary(applying, total),
      all ? 'Every block validates: click to apply them all (all or nothing)' : `${total - applying} of ${total} blocks do not apply: click for the Problems panel`,
      all ? { title: 'Apply all blocks', command: 'fsrb.applyAll', arguments: [doc!.uri.toString()] } : { title: 'Show problems', command: 'workbench.actions.view.problems' },
    );
    this.item.backgroundColor = all || total === 0 ? undefined : new vscode.ThemeColor('statusBarItem.warningBackground');
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
