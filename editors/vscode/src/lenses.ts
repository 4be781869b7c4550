import * as vscode from 'vscode';

// An editor asks its code lens providers again when the set of providers of
// its language changes. Registering and dropping an empty provider is the
// one way an extension can make VS Code re-ask providers it does not own
// (the merge-conflict extension's), or re-ask the language client's provider
// after the server re-validated a patch without a workspace/codeLens/refresh
// (VS Code keeps showing the lenses it has until the text changes again).
let pending: NodeJS.Timeout | undefined;
export function refreshCodeLenses(delay = 200) {
  if (pending) clearTimeout(pending);
  pending = setTimeout(() => {
    pending = undefined;
    const reg = vscode.languages.registerCodeLensProvider([{ language: 'fsrb' }, { language: 'markdown' }], { provideCodeLenses: () => [] });
    setTimeout(() => reg.dispose(), 300);
  }, delay);
}
