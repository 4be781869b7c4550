// fsrb for VS Code: a client of the fsrb-lsp language server for *.fsrb
// patches (and Markdown chat answers when `fsrb.markdown` is on).
import * as vscode from 'vscode';
import {
  CodeLensRequest,
  DocumentSymbolRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { resolveServer } from './server';
import { BlockStatus } from './status';
import { Block, blockUnder, patchBlocks } from './blocks';
import { MergeConflictGuard } from './mergeConflict';
import { TargetSync, changeOnce } from './targets';
import { Preview } from './preview';
import { FsrbCapabilities } from './capabilities';
import { ClipboardPatches, applyingCommands } from './clipboard';
import { registerMcpProvider } from './mcp';
import { setLensClient } from './lenses';

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel;
let status: BlockStatus;
let starting: Promise<void> | undefined;
let guard: MergeConflictGuard | undefined;
let preview: Preview;
let clipboard: ClipboardPatches;

function config() {
  return vscode.workspace.getConfiguration('fsrb');
}

function markdownServed(): boolean {
  return config().get<boolean>('markdown', false);
}

export function isPatchDocument(doc: vscode.TextDocument | undefined): boolean {
  if (!doc) return false;
  return doc.languageId === 'fsrb' || (doc.languageId === 'markdown' && markdownServed());
}

// A URI the extension serves as a patch: its open document, or when it is
// not open (closed since), its name.
function isPatchUri(uri: vscode.Uri): boolean {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (doc) return isPatchDocument(doc);
  return /\.fsrb$/i.test(uri.path) || (markdownServed() && /\.(md|markdown)$/i.test(uri.path));
}

const patchCommands = ['fsrb.applyAll', 'fsrb.applyBlock', 'fsrb.revertAll', 'fsrb.revertBlock', 'fsrb.skipBlock', 'fsrb.includeBlock'];
// The commands of one block, and the verb the block picker asks with.
const blockCommands: Record<string, string> = {
  'fsrb.applyBlock': 'apply', 'fsrb.revertBlock': 'revert', 'fsrb.skipBlock': 'skip', 'fsrb.includeBlock': 'include',
};

// The patches: the documents the features (lenses, code actions, hover, …)
// serve. Every file document is synchronized besides (targets.ts).
function documentSelector(): { scheme: string; language: string }[] {
  const sel = [
    { scheme: 'file', language: 'fsrb' },
    { scheme: 'untitled', language: 'fsrb' },
  ];
  if (markdownServed()) sel.push({ scheme: 'file', language: 'markdown' }, { scheme: 'untitled', language: 'markdown' });
  return sel;
}

// The block under the cursor, as the server reads the patch (blocks.ts),
// for a command run with no block number (the palette, a key binding).
// With the cursor on no block (prose between a chat answer's code blocks,
// a blank line between two blocks) nothing is guessed: a quick pick asks
// which block, and Escape runs nothing. When the server does not say, a
// warning says so and nothing runs.
async function blockAt(uri: vscode.Uri, line: number, verb: string): Promise<number | undefined> {
  const found = await serverBlocks(uri);
  if (typeof found === 'string') {
    vscode.window.showWarningMessage(`fsrb: the server did not say which block is under the cursor (${found}): nothing was run; `
      + `use the lenses over the block, or run the command again once the server runs`);
    return undefined;
  }
  if (found.length === 0) {
    vscode.window.showWarningMessage(`fsrb: this patch has no block to ${verb}`);
    return undefined;
  }
  const under = blockUnder(found, line);
  if (under) return under.n;
  const pick = await vscode.window.showQuickPick(
    found.map((b) => ({ label: b.title, description: b.title.includes(b.path) ? undefined : b.path, n: b.n })),
    { placeHolder: `fsrb: the cursor is on no block: ${verb} which one? (Escape: none)` },
  );
  return pick?.n;
}

// The patch's blocks from the fsrb client itself (its document symbols and
// code lenses): other extensions' symbol providers have no say. A string
// says why there are none.
async function serverBlocks(uri: vscode.Uri): Promise<Block[] | string> {
  const c = client;
  if (!c || c.state !== State.Running) return 'the server is not running';
  const params = { textDocument: { uri: c.code2ProtocolConverter.asUri(uri) } };
  try {
    const [symbols, lenses] = await Promise.all([
      c.sendRequest(DocumentSymbolRequest.type, params),
      c.sendRequest(CodeLensRequest.type, params),
    ]);
    if (!symbols || !lenses) return 'no answer';
    const blocks = patchBlocks(symbols, lenses);
    // (A server whose status lenses carry no block number.)
    if (blocks.length === 0 && symbols.some((f) => 'children' in f && f.children?.length)) return 'its lenses name no block';
    return blocks;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const found = await resolveServer(config().get<string>('server.path', ''));
  if (!found.path) {
    const open = 'Open Settings';
    output.appendLine(`[fsrb] ${found.error}`);
    vscode.window.showErrorMessage(found.error!, open).then((choice) => {
      if (choice === open) vscode.commands.executeCommand('workbench.action.openSettings', 'fsrb.server.path');
    });
    status.serverMissing();
    return;
  }
  output.appendLine(`[fsrb] starting ${found.path} (${found.source})`);
  // stdio, with no transport flag: TransportKind.stdio would add `--stdio`.
  const serverOptions: ServerOptions = { command: found.path, args: [] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    outputChannel: output,
    traceOutputChannel: output,
    initializationOptions: {
      fuzzy: config().get<boolean>('fuzzy', false),
      showChangedFiles: config().get<boolean>('showChangedFiles', false),
    },
    synchronize: { configurationSection: 'fsrb' },
    middleware: {
      didChange: changeOnce(),
      // The server may analyze a synchronized file that is no patch here (a
      // Markdown file with `fsrb.markdown` off, a target): its diagnostics
      // are not shown.
      // (A server that offers pull diagnostics is asked for the patches'
      // only, and pushes nothing.)
      handleDiagnostics: (uri, diagnostics, next) => next(uri, isPatchUri(uri) ? diagnostics : []),
      // "Preview all blocks" beside the server's "Apply all blocks" lens.
      provideCodeLenses: async (document, token, next) => {
        const lenses = await next(document, token);
        if (!lenses) return lenses;
        const i = lenses.findIndex((l) => l.command?.command === 'fsrb.applyAll');
        if (i >= 0) {
          lenses.splice(i + 1, 0, new vscode.CodeLens(lenses[i].range, {
            title: 'Preview all blocks',
            command: 'fsrb.preview',
            arguments: [document.uri],
          }));
        }
        return lenses;
      },
      // The palette runs the commands with no arguments: fill in the active
      // patch and, for one block, the block under the cursor.
      executeCommand: async (command, args, next) => {
        if (args.length === 0 && patchCommands.includes(command)) {
          const editor = vscode.window.activeTextEditor;
          if (!editor || !isPatchDocument(editor.document)) {
            vscode.window.showWarningMessage('fsrb: open a patch (*.fsrb) first');
            return undefined;
          }
          args = [editor.document.uri.toString()];
          if (blockCommands[command]) {
            const n = await blockAt(editor.document.uri, editor.selection.active.line, blockCommands[command]);
            if (n === undefined) return undefined;
            args.push(n);
          }
        }
        const res = await next(command, args);
        // A skip changes what the status bar says, and no file.
        if (command === 'fsrb.skipBlock' || command === 'fsrb.includeBlock') status.refresh(0);
        if (applyingCommands.includes(command)) void clipboard.closeApplied();
        return res;
      },
    },
  };
  const c = new LanguageClient('fsrb', 'fsrb', serverOptions, clientOptions);
  c.registerFeature(new TargetSync(c));
  c.registerFeature(new FsrbCapabilities());
  client = c;
  status.setClient(c);
  setLensClient(c);
  context.subscriptions.push(
    c.onDidChangeState((e) => {
      if (e.newState === State.Stopped) status.refresh();
    }),
  );
  try {
    await c.start();
    const info = c.initializeResult?.serverInfo;
    output.appendLine(`[fsrb] server ${info?.name ?? '?'} ${info?.version ?? '?'} (${found.source}: ${found.path})`);
    // A server older than the revert commands: keep them out of the palette
    // (the language client registers only the commands the server lists).
    const commands = c.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
    vscode.commands.executeCommand('setContext', 'fsrb.serverReverts', commands.includes('fsrb.revertAll'));
    vscode.commands.executeCommand('setContext', 'fsrb.serverSkips', commands.includes('fsrb.skipBlock'));
  } catch (err) {
    output.appendLine(`[fsrb] the server did not start: ${err}`);
    vscode.window.showErrorMessage(`fsrb: the language server ${found.path} did not start: ${err}`, 'Show Log').then((choice) => {
      if (choice) output.show(true);
    });
  }
  status.refresh();
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  status.setClient(undefined);
  setLensClient(undefined);
  if (c) {
    try {
      await c.stop(2000);
    } catch {
      // already stopped
    }
    c.dispose(2000);
  }
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  await starting;
  await stopClient();
  starting = startClient(context);
  await starting;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('fsrb', { log: true });
  // First: VS Code may have activated the extension for its MCP server only.
  registerMcpProvider(context, output);
  status = new BlockStatus(isPatchDocument);
  guard = new MergeConflictGuard(context, isPatchDocument, output);
  preview = new Preview(() => client);
  clipboard = new ClipboardPatches(() => client, output);
  context.subscriptions.push(output, status, guard, preview, clipboard);
  vscode.commands.executeCommand('setContext', 'fsrb.markdownServed', markdownServed());

  context.subscriptions.push(
    vscode.commands.registerCommand('fsrb.restartServer', () => restart(context)),
    vscode.commands.registerCommand('fsrb.showServerLog', () => output.show(true)),
    vscode.commands.registerCommand('fsrb.preview', (uri?: vscode.Uri | string) => {
      if (uri === undefined) {
        const editor = vscode.window.activeTextEditor;
        if (!editor || !isPatchDocument(editor.document)) {
          vscode.window.showWarningMessage('fsrb: open a patch (*.fsrb) first');
          return;
        }
        uri = editor.document.uri;
      }
      return preview.show(typeof uri === 'string' ? vscode.Uri.parse(uri) : uri);
    }),
    vscode.commands.registerCommand('fsrb.applyPreview', () => preview.applyOpen()),
    vscode.commands.registerCommand('fsrb.applyFromClipboard', () => clipboard.open()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('fsrb.server.path') || e.affectsConfiguration('fsrb.markdown')) {
        vscode.commands.executeCommand('setContext', 'fsrb.markdownServed', markdownServed());
        restart(context);
      }
    }),
  );
  // fsrb.applyAll, fsrb.applyBlock, fsrb.revertAll, fsrb.revertBlock,
  // fsrb.skipBlock and fsrb.includeBlock are the server's commands: the language client registers them (with the middleware above), so that
  // code lenses, code actions and the palette all reach the server.

  // Activated by a Markdown file with `fsrb.markdown` off: start the server
  // only once a patch is opened.
  if (vscode.workspace.textDocuments.some(isPatchDocument)) {
    starting = startClient(context);
  } else {
    const sub = vscode.workspace.onDidOpenTextDocument((doc) => {
      if (!client && isPatchDocument(doc)) {
        sub.dispose();
        starting = startClient(context);
      }
    });
    context.subscriptions.push(sub);
  }
  await starting;
}

export async function deactivate(): Promise<void> {
  await Promise.all([guard?.release(), stopClient()]);
}
