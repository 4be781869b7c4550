// The block under the cursor (src/blocks.ts): the document symbol whose
// range holds the line, numbered by the status lens on its selection line.
// The answers below have the shape fsrb-lsp gives for a chat answer: a
// file symbol per path, a child per block whose range starts at the
// block's file-name line, and the lenses on each block's fence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox } from '../test-support/sandbox.mjs';

const box = sandbox('fsrb-blocks-test-', 'blocks.ts', () => 'module.exports = {};');
let patchBlocks, blockUnder;
test.before(() => { ({ patchBlocks, blockUnder } = box.module); });

const pos = (line, character = 0) => ({ line, character });
const range = (a, b) => ({ start: a, end: b });
const line = (l) => range(pos(l), pos(l, 9));

//  0 Here are the two changes.
//  1
//  2 `src/a.py`
//  3 ```python
//  4 # ...existing code...
//  5 def two():
//  6     return 22
//  7 ```
//  8
//  9 Then update the other file:
// 10
// 11 src/b.py
// 12 ```python
// 13 x = 1
// 14 y = 3
// 15 ```
// 16
// 17 That's all.
function fileSymbol(path, first, sel, last, n, op) {
  const whole = range(pos(first), pos(last, 3));
  return {
    name: path, kind: 1, range: whole, selectionRange: line(sel),
    children: [{ name: `#${n} ${op}`, detail: 'applies', kind: 24, range: whole, selectionRange: line(sel) }],
  };
}
const symbols = [fileSymbol('src/a.py', 2, 3, 7, 1, 'snippet'), fileSymbol('src/b.py', 11, 12, 15, 2, 'snippet')];
const uri = 'file:///ws/answer.md';
const lens = (l, title, command, n) => ({ range: line(l), command: { title, command, arguments: n === undefined ? [uri] : [uri, n] } });
const lenses = [
  lens(0, 'Apply all blocks', 'fsrb.applyAll'),
  lens(3, '#1 applies at src/a.py:6 (lazy)', '', 1),
  lens(3, 'Apply', 'fsrb.applyBlock', 1),
  lens(3, 'Skip block', 'fsrb.skipBlock', 1),
  lens(12, '#2 applies at src/b.py:2 (whole-file)', '', 2),
  lens(12, 'Apply', 'fsrb.applyBlock', 2),
  lens(12, 'Skip block', 'fsrb.skipBlock', 2),
];

test('each block of the answer, numbered by its status lens, with its lines from the file name to the fence', () => {
  assert.deepEqual(patchBlocks(symbols, lenses), [
    { n: 1, first: 2, last: 7, path: 'src/a.py', title: '#1 applies at src/a.py:6 (lazy)' },
    { n: 2, first: 11, last: 15, path: 'src/b.py', title: '#2 applies at src/b.py:2 (whole-file)' },
  ]);
});

test('the cursor on block #2\'s file-name line, above the lens of its fence: block #2', () => {
  const blocks = patchBlocks(symbols, lenses);
  for (const l of [11, 12, 14, 15]) assert.equal(blockUnder(blocks, l)?.n, 2, `line ${l}`);
  for (const l of [2, 3, 7]) assert.equal(blockUnder(blocks, l)?.n, 1, `line ${l}`);
});

test('the cursor in the prose between the blocks, above the first or below the last: no block', () => {
  const blocks = patchBlocks(symbols, lenses);
  for (const l of [0, 1, 8, 9, 10, 16, 17]) assert.equal(blockUnder(blocks, l), undefined, `line ${l}`);
});

test('a range that ends at the start of a line leaves that line out', () => {
  const s = [{ ...symbols[0], children: [{ ...symbols[0].children[0], range: range(pos(2), pos(8, 0)) }] }];
  const blocks = patchBlocks(s, lenses);
  assert.equal(blockUnder(blocks, 7)?.n, 1);
  assert.equal(blockUnder(blocks, 8), undefined);
});

test('a block whose selection line has no status lens is left out: its number is not known', () => {
  const blocks = patchBlocks(symbols, lenses.filter((l) => l.command.arguments[1] !== 2 || l.command.command));
  assert.deepEqual(blocks.map((b) => b.n), [1]);
  assert.equal(blockUnder(blocks, 11), undefined);
});

test('flat symbols (SymbolInformation) name no block', () => {
  const flat = [{ name: 'src/a.py', kind: 1, location: { uri, range: range(pos(2), pos(7, 3)) } }];
  assert.deepEqual(patchBlocks(flat, lenses), []);
});
