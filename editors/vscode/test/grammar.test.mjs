// Tokenizes patches with the TextMate grammar (vscode-textmate, the engine
// VS Code uses) and checks the scopes of headers, markers and bodies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vsctm from 'vscode-textmate';
import oniguruma from 'vscode-oniguruma';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const wasm = readFileSync(join(dirname(require.resolve('vscode-oniguruma')), 'onig.wasm'));

async function grammar() {
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (p) => new oniguruma.OnigScanner(p),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => {
      if (scope !== 'source.fsrb') return null; // embedded grammars are VS Code's
      const path = join(here, '..', 'syntaxes', 'fsrb.tmLanguage.json');
      return vsctm.parseRawGrammar(readFileSync(path, 'utf8'), path);
    },
  });
  return registry.loadGrammar('source.fsrb');
}

// Returns, per line, the scopes of all its tokens.
async function scopes(text) {
  const g = await grammar();
  let state = vsctm.INITIAL;
  return text.split('\n').map((line) => {
    const r = g.tokenizeLine(line, state);
    state = r.ruleStack;
    return { line, scopes: r.tokens.map((t) => t.scopes.join(' ')).join(' | ') };
  });
}

const has = (rows, i, scope) =>
  assert.ok(rows[i].scopes.includes(scope), `line ${i + 1} ${JSON.stringify(rows[i].line)}: want ${scope}, got ${rows[i].scopes}`);
const hasNot = (rows, i, scope) =>
  assert.ok(!rows[i].scopes.includes(scope), `line ${i + 1} ${JSON.stringify(rows[i].line)}: unwanted ${scope} in ${rows[i].scopes}`);

test('headers, markers, bodies and embedded languages', async () => {
  const rows = await scopes(readFileSync(join(here, '..', '..', 'e2e', 'fixture', 'change.fsrb'), 'utf8'));
  const at = (s) => rows.findIndex((r) => r.line === s);
  has(rows, 0, 'comment.line.number-sign.fsrb');
  has(rows, at('README.md'), 'entity.name.filename.fsrb');
  has(rows, at('src/app.py'), 'entity.name.filename.fsrb');
  const s = at('src/app.py') + 1;
  has(rows, s, 'keyword.control.search.fsrb');
  has(rows, s + 1, 'markup.deleted.search.fsrb');
  has(rows, s + 1, 'meta.embedded.block.python');
  has(rows, s + 3, 'punctuation.separator.fsrb');
  has(rows, s + 4, 'markup.inserted.replace.fsrb');
  has(rows, s + 4, 'meta.embedded.block.python');
  has(rows, s + 6, 'keyword.control.replace.fsrb');
  // The headerless block after it: plain bodies, markers still coloured.
  has(rows, s + 8, 'keyword.control.search.fsrb');
  has(rows, s + 9, 'markup.deleted.search.fsrb');
  hasNot(rows, s + 9, 'meta.embedded');
  // Markdown target: a "# Usage" body line is body text, not a comment.
  const usage = at('# Usage');
  has(rows, usage, 'markup.inserted.replace.fsrb');
  has(rows, usage, 'meta.embedded.block.markdown');
  hasNot(rows, usage, 'comment.line');
  has(rows, at('legacy/old.txt'), 'entity.name.filename.fsrb');
});

test('decorated headers, escapes, fences, NEW_FILE and Cline markers', async () => {
  const rows = await scopes([
    '**src/a.go**', '```go', '<<<<<<< SEARCH', '\\=======', 'x := "unclosed', '=======', 'y := 1', '>>>>>>> REPLACE', '```',
    '### File: notes.txt', '<<<<<<< NEW_FILE', 'hello', '>>>>>>> NEW_FILE', 'prose after it',
    '`lib/x.rb`:', '------- SEARCH', 'a = 1', '=======', 'a = 2', '+++++++ REPLACE',
  ].join('\n'));
  has(rows, 0, 'entity.name.filename.fsrb');
  has(rows, 1, 'punctuation.definition.fence.fsrb');
  has(rows, 2, 'keyword.control.search.fsrb');
  has(rows, 3, 'constant.character.escape.fsrb');
  has(rows, 4, 'meta.embedded.block.go');
  has(rows, 5, 'punctuation.separator.fsrb'); // an unclosed string cannot swallow the separator
  has(rows, 6, 'markup.inserted.replace.fsrb');
  has(rows, 7, 'keyword.control.replace.fsrb');
  has(rows, 9, 'entity.name.filename.fsrb');
  has(rows, 10, 'keyword.control.search.fsrb');
  has(rows, 11, 'markup.inserted.newfile.fsrb');
  has(rows, 12, 'keyword.control.replace.fsrb');
  hasNot(rows, 13, 'markup.');
  has(rows, 14, 'entity.name.filename.fsrb');
  has(rows, 15, 'keyword.control.search.fsrb');
  has(rows, 16, 'meta.embedded.block.ruby');
  has(rows, 18, 'markup.inserted.replace.fsrb');
  has(rows, 19, 'keyword.control.replace.fsrb');
});
