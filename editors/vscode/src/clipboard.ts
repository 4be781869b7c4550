// "fsrb: Apply from clipboard": the clipboard's text (a chat answer, a
// patch in any format fsrb reads) opened as an untitled patch beside the
// active editor, served as any patch (diagnostics, preview, "Apply all").
// It is never written to disk: once every block of it stands applied, the
// extension reverts and closes it, so that neither closing it nor "Save All"
// (which would ask where to save an untitled document) asks anything; the
// clipboard still holds it.
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient, State } from 'vscode-languageclient/node';

// The server commands after which a clipboard patch may stand applied
// ("fsrb.applied" follows a code action's edit).
export const applyingCommands = ['fsrb.applyAll', 'fsrb.applyBlock', 'fsrb.applied'];

export class ClipboardPatches implements vscode.Disposable {
  private opened = new Set<string>();
  private sub: vscode.Disposable;

  constructor(private client: () => LanguageClient | undefined, private output: vscode.LogOutputChannel) {
    this.sub = vscode.workspace.onDidCloseTextDocument((d) => this.opened.delete(d.uri.toString()));
  }

  async open(): Promise<void> {
    const text = await vscode.env.clipboard.readText();
    if (text.trim() === '') {
      vscode.window.showWarningMessage('fsrb: the clipboard holds no text to apply');
      return;
    }
    if (!vscode.workspace.workspaceFolders?.length) {
      vscode.window.showWarningMessage('fsrb: open a folder first: the patch\'s paths are relative to it');
      return;
    }
    const doc = await vscode.workspace.openTextDocument({ language: 'fsrb', content: text });
    this.opened.add(doc.uri.toString());
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  }

  /** Closes, without asking, each clipboard patch that now stands applied. */
  async closeApplied(): Promise<void> {
    const c = this.client();
    if (!c || c.state !== State.Running) return;
    for (const key of [...this.opened]) {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
      if (!doc) continue;
      let state: string | undefined;
      try {
        const rep = (await c.sendRequest(ExecuteCommandRequest.type, {
          command: 'fsrb.status',
          arguments: [c.code2ProtocolConverter.asUri(doc.uri)],
        })) as { state?: string } | null;
        state = rep?.state;
      } catch {
        continue;
      }
      if (state !== 'applied') continue;
      try {
        await this.revertAndClose(doc);
      } catch (err) {
        this.output.appendLine(`[fsrb] could not close ${key}: ${err}`);
      }
    }
  }

  // An untitled document has nothing to revert to: VS Code closes it,
  // unsaved, without a prompt. Only the active editor can be reverted.
  private async revertAndClose(doc: vscode.TextDocument): Promise<void> {
    const previous = vscode.window.activeTextEditor;
    // In its own group: elsewhere it would open a second editor of it.
    const tab = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === doc.uri.toString());
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: tab?.group.viewColumn, preview: false, preserveFocus: false });
    if (vscode.window.activeTextEditor?.document !== editor.document) return;
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    this.opened.delete(doc.uri.toString());
    this.output.appendLine(`[fsrb] ${doc.uri.toString()}, from the clipboard, applied: closed without saving`);
    if (previous && previous.document !== doc && !previous.document.isClosed) {
      await vscode.window.showTextDocument(previous.document, { viewColumn: previous.viewColumn, preview: false });
    }
  }

  dispose() {
    this.sub.dispose();
  }
}
