import * as vscode from 'vscode';
import { CodeLensRequest, LanguageClient, State } from 'vscode-languageclient/node';

// VS Code keeps showing the lenses it has until the text changes again:
// after the server re-validated a patch without a workspace/codeLens/refresh,
// or after merge-conflict dropped its provider later than the editor asked,
// the extension has to make the editor ask its providers again. An editor
// asks again in two ways. When one of its providers fires its change event,
// it asks every provider of the document, the merge-conflict extension's
// too, and keeps the lenses it shows until the new ones are there. When
// the set of providers of its language changes, it drops every lens and
// draws them again: the lenses blink out, once for the register and once
// for the drop. So the language client's own provider is fired, for the
// patches on screen, and registering and dropping an empty provider is left
// for when no client runs.
let client: LanguageClient | undefined;
let pending: NodeJS.Timeout | undefined;

/** The client whose code lens provider refreshCodeLenses fires. */
export function setLensClient(c: LanguageClient | undefined) {
  client = c;
}

export function refreshCodeLenses(delay = 200) {
  if (pending) clearTimeout(pending);
  pending = setTimeout(() => {
    pending = undefined;
    if (fireClientProviders()) return;
    const reg = vscode.languages.registerCodeLensProvider([{ language: 'fsrb' }, { language: 'markdown' }], { provideCodeLenses: () => [] });
    setTimeout(() => reg.dispose(), 300);
  }, delay);
}

// fireClientProviders fires the client's code lens provider of each
// visible document it serves, and says whether there was one.
function fireClientProviders(): boolean {
  const c = client;
  if (!c || c.state !== State.Running) return false;
  const feature = c.getFeature(CodeLensRequest.method);
  const fired = new Set<vscode.EventEmitter<void>>();
  for (const e of vscode.window.visibleTextEditors) {
    const emitter = feature?.getProvider(e.document)?.onDidChangeCodeLensEmitter;
    if (emitter && !fired.has(emitter)) {
      fired.add(emitter);
      emitter.fire();
    }
  }
  return fired.size > 0;
}
