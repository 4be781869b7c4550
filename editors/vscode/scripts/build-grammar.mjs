// Writes syntaxes/fsrb.tmLanguage.json (run by `npm run grammar`; the output
// is committed). One rule per known target language: a header line whose path
// ends in that language's extension opens a region that runs to the REPLACE
// marker of the block under it, and the SEARCH and REPLACE bodies embed the
// language's grammar. Bodies use begin/while rules, so an embedded grammar
// (an unclosed string, say) can never swallow a marker line.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// extension(s) -> [scope of the embedded grammar, embedded language id]
const languages = [
  [['py', 'pyi', 'pyw'], 'source.python', 'python'],
  [['js', 'mjs', 'cjs'], 'source.js', 'javascript'],
  [['jsx'], 'source.js.jsx', 'javascriptreact'],
  [['ts', 'mts', 'cts'], 'source.ts', 'typescript'],
  [['tsx'], 'source.tsx', 'typescriptreact'],
  [['go'], 'source.go', 'go'],
  [['rs'], 'source.rust', 'rust'],
  [['java'], 'source.java', 'java'],
  [['c', 'h'], 'source.c', 'c'],
  [['cc', 'cpp', 'cxx', 'hh', 'hpp', 'hxx'], 'source.cpp', 'cpp'],
  [['cs'], 'source.cs', 'csharp'],
  [['rb'], 'source.ruby', 'ruby'],
  [['sh', 'bash', 'zsh'], 'source.shell', 'shellscript'],
  [['json', 'jsonc'], 'source.json', 'json'],
  [['yaml', 'yml'], 'source.yaml', 'yaml'],
  [['md', 'markdown'], 'text.html.markdown', 'markdown'],
  [['html', 'htm'], 'text.html.basic', 'html'],
  [['css'], 'source.css', 'css'],
  [['lua'], 'source.lua', 'lua'],
  [['sql'], 'source.sql', 'sql'],
  [['swift'], 'source.swift', 'swift'],
  [['php'], 'source.php', 'php'],
];

// A path on a header line, as models decorate it: `### File: src/a.py`,
// `**src/a.py**`, `` `src/a.py`: ``, `Filename: ./a.py`. Group 1 is the path.
const headerPath = (ext) =>
  String.raw`^\s*(?:#{1,6}\s*)?(?:(?:File|Filename):\s*)?[*` + '`' + String.raw`'"]*(?:\./)?([^\s*` + '`' + String.raw`'"]*` +
  (ext ? String.raw`\.(?:${ext})` : String.raw`[./][^\s*` + '`' + String.raw`'"]*`) +
  String.raw`)[*` + '`' + String.raw`'"]*:?\s*$`;

const SEARCH = String.raw`^\s*(<{5,9})\s*(SEARCH>?)\s*$`;
const SEARCH_ROO = String.raw`^\s*(-{3,})\s*(SEARCH)\s*$`;
const SEP = String.raw`^\s*(={5,9})\s*$`;
const REPLACE = String.raw`^\s*(>{5,9})\s*(REPLACE)\s*$`;
const REPLACE_ROO = String.raw`^\s*(\+{3,})\s*(REPLACE)\s*$`;
const notSep = String.raw`^(?!\s*={5,9}\s*$)`;
const NEWFILE = String.raw`^\s*(<{5,9})\s*(NEW_FILE)\s*$`;
const NEWFILE_END = String.raw`^\s*(>{5,9})\s*(NEW_FILE)\s*$`;
const notNewfileEnd = String.raw`^(?!\s*>{5,9}\s*NEW_FILE\s*$)`;
const notReplace = String.raw`^(?!\s*(?:>{5,9}\s*REPLACE|\+{3,}\s*REPLACE)\s*$)`;

const markerCaptures = (what) => ({
  1: { name: `punctuation.definition.${what}.fsrb` },
  2: { name: `keyword.control.${what}.fsrb` },
});

function body(lang) {
  const inner = lang ? [{ include: '#escape' }, { include: lang.scope }] : [{ include: '#escape' }];
  const embedded = lang ? ` meta.embedded.block.${lang.id}` : '';
  return [
    {
      name: 'meta.search.fsrb',
      begin: `${SEARCH}|${SEARCH_ROO}`,
      beginCaptures: {
        1: { name: 'punctuation.definition.search.fsrb' },
        2: { name: 'keyword.control.search.fsrb' },
        3: { name: 'punctuation.definition.search.fsrb' },
        4: { name: 'keyword.control.search.fsrb' },
      },
      while: notSep,
      contentName: `markup.deleted.search.fsrb${embedded}`,
      patterns: [{ include: '#hint' }, ...inner],
    },
    {
      name: 'meta.replace.fsrb',
      begin: SEP,
      beginCaptures: { 1: { name: 'punctuation.separator.fsrb keyword.operator.separator.fsrb' } },
      while: notReplace,
      contentName: `markup.inserted.replace.fsrb${embedded}`,
      patterns: inner,
    },
    {
      name: 'meta.newfile.fsrb',
      begin: NEWFILE,
      beginCaptures: markerCaptures('search'),
      while: notNewfileEnd,
      contentName: `markup.inserted.newfile.fsrb${embedded}`,
      patterns: inner,
    },
  ];
}

function fileRule(lang) {
  return {
    name: `meta.file.fsrb${lang ? ` meta.file.${lang.id}.fsrb` : ''}`,
    begin: headerPath(lang ? lang.exts.join('|') : ''),
    beginCaptures: { 0: { name: 'meta.header.fsrb' }, 1: { name: 'entity.name.filename.fsrb string.unquoted.path.fsrb' } },
    end: `${REPLACE}|${REPLACE_ROO}|${NEWFILE_END}`,
    endCaptures: {
      1: { name: 'punctuation.definition.replace.fsrb' },
      2: { name: 'keyword.control.replace.fsrb' },
      3: { name: 'punctuation.definition.replace.fsrb' },
      4: { name: 'keyword.control.replace.fsrb' },
      5: { name: 'punctuation.definition.replace.fsrb' },
      6: { name: 'keyword.control.replace.fsrb' },
    },
    patterns: [{ include: '#fence' }, { include: '#comment' }, ...body(lang)],
  };
}

const grammar = {
  $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
  name: 'fsrb',
  scopeName: 'source.fsrb',
  comment: 'Generated by scripts/build-grammar.mjs: edit that, not this file.',
  patterns: [
    ...languages.map(([exts, scope, id]) => fileRule({ exts, scope, id })),
    fileRule(null),
    { include: '#newfile' },
    { include: '#block' },
    { include: '#fence' },
    { include: '#comment' },
  ],
  repository: {
    comment: { name: 'comment.line.number-sign.fsrb', match: String.raw`^\s*#.*$` },
    fence: {
      name: 'markup.fenced_code.block.fsrb punctuation.definition.fence.fsrb',
      match: String.raw`^\s*(?:` + '`{3,}' + String.raw`.*|~{3,}.*|</?(?:source|code|pre|codeblock|sourcecode)\b.*)$`,
    },
    escape: {
      name: 'constant.character.escape.fsrb',
      match: String.raw`^\s*\\+(?:<{5,9}\s*(?:SEARCH|NEW_FILE)|={5,9}|>{5,9}\s*(?:REPLACE|NEW_FILE)|-{3,}\s*SEARCH|\+{3,}\s*REPLACE)\s*$`,
    },
    hint: { name: 'meta.hint.fsrb support.constant.hint.fsrb', match: String.raw`^:(?:start|end)_line:\d+\s*$` },
    block: {
      comment: 'A block with no header of its own (it edits the previous block\'s file).',
      name: 'meta.block.fsrb',
      begin: `(?=${SEARCH}|${SEARCH_ROO})`,
      end: `${REPLACE}|${REPLACE_ROO}`,
      endCaptures: {
        1: { name: 'punctuation.definition.replace.fsrb' },
        2: { name: 'keyword.control.replace.fsrb' },
        3: { name: 'punctuation.definition.replace.fsrb' },
        4: { name: 'keyword.control.replace.fsrb' },
      },
      patterns: body(null),
    },
    newfile: {
      name: 'meta.newfile.fsrb',
      begin: NEWFILE,
      beginCaptures: markerCaptures('search'),
      end: NEWFILE_END,
      endCaptures: markerCaptures('replace'),
      contentName: 'markup.inserted.newfile.fsrb',
      patterns: [{ include: '#escape' }],
    },
  },
};

const out = join(here, '..', 'syntaxes', 'fsrb.tmLanguage.json');
writeFileSync(out, JSON.stringify(grammar, null, 2) + '\n');
console.log('wrote', out);
