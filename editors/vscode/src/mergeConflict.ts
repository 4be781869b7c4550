// VS Code's built-in merge-conflict extension takes `<<<<<<< SEARCH` /
// `=======` / `>>>>>>> REPLACE` for a git conflict: it paints the blocks as
// "Current Change" / "Incoming Change" and puts "Accept Current Change |
// Accept Incoming Change" lenses over each of them; a click rewrites the patch.
//
// What it honours (checked in VS Code 1.139's extensions/merge-conflict):
// `merge-conflict.codeLens.enabled` and `merge-conflict.decorators.enabled`,
// read with getConfiguration('merge-conflict') and no scope, and declared
// without a `scope` (so window-scoped). A language-scoped default such as
// `"[fsrb]": {"merge-conflict.codeLens.enabled": false}` is therefore never
// read, and its lens provider is registered for every language. The one
// switch is the window-wide setting, which it re-reads on every change.
//
// So while a patch is visible this guard sets both to false in the user
// settings, and puts the user's own values back (or removes the keys) as soon
// as no patch is visible, on deactivation, and on the next activation after
// a crash. `fsrb.mergeConflict.hideInPatches: false` turns it off.
import * as vscode from 'vscode';
import { refreshCodeLenses } from './lenses';

const KEYS = ['codeLens.enabled', 'decorators.enabled'] as const;
const SAVED = 'fsrb.mergeConflict.saved';
type Saved = Partial<Record<(typeof KEYS)[number], boolean | null>>;

export class MergeConflictGuard implements vscode.Disposable {
  private subs: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private later: NodeJS.Timeout[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private context: vscode.ExtensionContext,
    private isPatch: (d: vscode.TextDocument | undefined) => boolean,
    private log: vscode.OutputChannel,
  ) {
    this.subs.push(
      vscode.window.onDidChangeVisibleTextEditors(() => this.schedule()),
      vscode.workspace.onDidOpenTextDocument(() => this.schedule()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('fsrb.mergeConflict.hideInPatches') || e.affectsConfiguration('fsrb.markdown')) this.schedule();
      }),
    );
    this.schedule(0);
  }

  private wanted(): boolean {
    const on = vscode.workspace.getConfiguration('fsrb').get<boolean>('mergeConflict.hideInPatches', true);
    return on && vscode.window.visibleTextEditors.some((e) => this.isPatch(e.document));
  }

  // Opening a patch from another in the same editor group hides the first
  // before it shows the second, and on a busy machine the extension host
  // sees the moment in between with no patch visible. Restoring the
  // settings then brings merge-conflict's lenses and colours onto the
  // patch being opened, and switching them off again makes the editor drop
  // and redraw every lens twice more (the lenses blink). So a patch coming
  // into view is acted on at once, and the last one going out of view only
  // once no patch came back for a while.
  private schedule(delay?: number) {
    if (this.timer) clearTimeout(this.timer);
    delay ??= this.wanted() ? 50 : 1000;
    this.timer = setTimeout(() => {
      this.chain = this.chain.then(() => this.sync()).catch((err) => this.log.appendLine(`[fsrb] merge-conflict switch: ${err}`));
    }, delay);
  }

  /** Brings the merge-conflict settings in line with what is visible. */
  async sync(): Promise<void> {
    const saved = this.context.globalState.get<Saved>(SAVED);
    const cfg = vscode.workspace.getConfiguration('merge-conflict');
    if (this.wanted()) {
      if (saved) return; // already off
      const keep: Saved = {};
      for (const k of KEYS) {
        const i = cfg.inspect<boolean>(k);
        keep[k] = i?.globalValue ?? null;
        if (i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined) {
          this.log.appendLine(`[fsrb] merge-conflict.${k} is set in the workspace settings: fsrb cannot switch it off for patches`);
        }
      }
      await this.context.globalState.update(SAVED, keep);
      for (const k of KEYS) await cfg.update(k, false, vscode.ConfigurationTarget.Global);
      this.log.appendLine('[fsrb] a patch is visible: merge-conflict lenses and colours switched off');
      // merge-conflict drops its lens provider on the change, but an editor
      // keeps the lenses it has until its language's providers change. On
      // a busy machine merge-conflict may handle the change after the first
      // refresh and its lenses come back with it: ask again later too (in
      // CI its lenses were still there 1.2 s after the switch, twice in
      // three runs).
      refreshCodeLenses();
      this.later.forEach(clearTimeout);
      this.later = [1500, 5000].map((ms) => setTimeout(() => refreshCodeLenses(0), ms));
    } else if (saved) {
      await this.restore(saved);
    }
  }

  private async restore(saved: Saved) {
    const cfg = vscode.workspace.getConfiguration('merge-conflict');
    for (const k of KEYS) {
      const v = saved[k];
      await cfg.update(k, v === null || v === undefined ? undefined : v, vscode.ConfigurationTarget.Global);
    }
    await this.context.globalState.update(SAVED, undefined);
    this.log.appendLine('[fsrb] no patch is visible: merge-conflict settings restored');
  }

  /** Puts the user's settings back (deactivation). */
  async release(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.chain.catch(() => undefined);
    const saved = this.context.globalState.get<Saved>(SAVED);
    if (saved) await this.restore(saved);
  }

  dispose() {
    if (this.timer) clearTimeout(this.timer);
    this.later.forEach(clearTimeout);
    this.subs.forEach((s) => s.dispose());
  }
}
