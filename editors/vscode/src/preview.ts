// "fsrb: Preview all blocks": the whole change a patch would make, as VS Code
// shows changes — one multi-file diff editor (the built-in `vscode.changes`
// command) over virtual documents (scheme `fsrb-preview:`) holding each
// changed file's current and proposed text, as the server's `fsrb.preview`
// command computes them (exactly what "Apply all blocks" would write). From
// the preview, "Apply all" runs `fsrb.applyAll`, which validates the patch
// again on the files as they are then: all blocks or none.
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient, State } from 'vscode-languageclient/node';

export const previewScheme = 'fsrb-preview';

// The answer of the server's `fsrb.preview` command.
export interface PreviewReport {
  state: string;
  files: PreviewFile[];
  message?: string;
}

export interface PreviewFile {
  uri: string;
  path: string;
  operation: 'modify' | 'create' | 'delete';
  current: string;
  proposed: string;
}

export type Side = 'current' | 'proposed';

// The virtual document of one side of one file of one preview. The path
// keeps the file's name, so that the diff is highlighted in its language.
export function previewPath(generation: number, side: Side, path: string): { path: string; query: string } {
  return { path: '/' + path.replace(/^\/+/, ''), query: `${side}&${generation}` };
}

// The diff editor's resources: [label, left, right], the left side
// missing for a created file, the right one for a deleted file.
export function changeList<U>(
  files: PreviewFile[],
  uri: (f: PreviewFile, side: Side) => U,
  label: (f: PreviewFile) => U,
): [U, U | undefined, U | undefined][] {
  return files.map((f) => [
    label(f),
    f.operation === 'create' ? undefined : uri(f, 'current'),
    f.operation === 'delete' ? undefined : uri(f, 'proposed'),
  ]);
}

// The editor's title; VS Code adds the number of files ("(4 files)").
export function previewTitle(patchName: string): string {
  return `fsrb preview: ${patchName}`;
}

export class Preview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private texts = new Map<string, string>();
  private generation = 0;
  private subs: vscode.Disposable[] = [];
  private changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  // The preview on screen: its patch and its editor's title.
  private open: { patch: vscode.Uri; title: string } | undefined;

  constructor(private client: () => LanguageClient | undefined) {
    this.subs.push(
      vscode.workspace.registerTextDocumentContentProvider(previewScheme, this),
      this.changed,
      vscode.window.tabGroups.onDidChangeTabs(() => {
        if (this.open && this.tabs(this.open.title).length === 0) this.setOpen(undefined);
      }),
    );
  }

  private setOpen(open: { patch: vscode.Uri; title: string } | undefined) {
    this.open = open;
    // The "Apply all blocks" button in the preview's title bar.
    vscode.commands.executeCommand('setContext', 'fsrb.previewOpen', open !== undefined);
  }

  private tabs(title: string): vscode.Tab[] {
    return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label === title || t.label.startsWith(title + ' ('));
  }

  /**
   * Applies the patch of the preview on screen: "fsrb.applyAll", which
   * validates it again on the files as they are now (all blocks or none),
   * then closes the preview.
   */
  async applyOpen(): Promise<void> {
    const open = this.open;
    if (!open) {
      vscode.window.showWarningMessage('fsrb: no preview is open');
      return;
    }
    await this.close(open.title);
    await vscode.commands.executeCommand('fsrb.applyAll', open.patch.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  private uri(f: PreviewFile, side: Side): vscode.Uri {
    const u = vscode.Uri.from({ scheme: previewScheme, ...previewPath(this.generation, side, f.path) });
    this.texts.set(u.toString(), side === 'current' ? f.current : f.proposed);
    return u;
  }

  /** Opens the preview of the patch at uri and offers to apply it. */
  async show(patch: vscode.Uri): Promise<void> {
    const c = this.client();
    if (!c || c.state !== State.Running) {
      vscode.window.showWarningMessage('fsrb: the language server is not running');
      return;
    }
    let rep: PreviewReport | null;
    try {
      rep = (await c.sendRequest(ExecuteCommandRequest.type, {
        command: 'fsrb.preview',
        arguments: [c.code2ProtocolConverter.asUri(patch)],
      })) as PreviewReport | null;
    } catch (err) {
      vscode.window.showErrorMessage(`fsrb: no preview: ${err instanceof Error ? err.message : err}`);
      return;
    }
    if (!rep || !Array.isArray(rep.files)) {
      vscode.window.showErrorMessage('fsrb: this fsrb-lsp has no preview (fsrb.preview): update it');
      return;
    }
    if (rep.files.length === 0) {
      vscode.window.showInformationMessage(`fsrb: ${rep.message ?? 'nothing to preview'}`);
      return;
    }
    // A new preview forgets the texts of the ones before.
    this.generation++;
    this.texts.clear();
    const name = patch.path.split('/').pop() ?? patch.path;
    const title = previewTitle(name);
    if (this.open) await this.close(this.open.title);
    const changes = changeList(rep.files, (f, side) => this.uri(f, side), (f) => vscode.Uri.parse(f.uri));
    await vscode.commands.executeCommand('vscode.changes', title, changes);
    this.setOpen({ patch, title });
    const counts = rep.files.map((f) => f.operation);
    const summary = [
      ['modify', 'changed'],
      ['create', 'created'],
      ['delete', 'deleted'],
    ]
      .map(([op, word]) => [counts.filter((o) => o === op).length, word] as const)
      .filter(([n]) => n > 0)
      .map(([n, word]) => `${n} ${word}`)
      .join(', ');
    const apply = 'Apply all';
    const choice = await vscode.window.showInformationMessage(
      `fsrb: preview of ${name}: ${rep.files.length} ${rep.files.length === 1 ? 'file' : 'files'} (${summary}). Apply all blocks, or close the preview to apply nothing.`,
      apply,
      'Close preview',
    );
    // This notification's preview may have been closed, or replaced by another.
    if (this.open?.title !== title || this.open.patch.toString() !== patch.toString()) return;
    if (choice === apply) await this.applyOpen();
    else if (choice !== undefined) await this.close(title);
  }

  private async close(title: string): Promise<void> {
    const tabs = this.tabs(title);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
    if (this.open?.title === title) this.setOpen(undefined);
  }

  dispose() {
    this.subs.forEach((s) => s.dispose());
  }
}
