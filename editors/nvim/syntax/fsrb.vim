" Vim syntax file
" Language: fsrb patch (SEARCH/REPLACE blocks: aider, Pyxis, Cline/Roo variants)
if exists('b:current_syntax')
  finish
endif

syntax case match
" Patches are small and a body may hold anything: parse from the top.
syntax sync fromstart

" Outside blocks: comments, fences, headers (path lines), prose.
syntax match fsrbComment /^\s*#.*$/ contains=fsrbHeader
syntax match fsrbFence   /^\s*\(```\+\|\~\~\~\+\).*$/
syntax match fsrbFence   /^\s*<\/\?\(source\|code\|pre\|codeblock\|sourcecode\)\>.*$/
" A header: a lone path (no spaces, with '/' or '.'), optionally decorated as
" models write it: ### File: x, **x**, `x`:, Filename: ./x
syntax match fsrbHeader /^\s*\(#\{1,6}\s*\)\?\(File:\|Filename:\)\?\s*[*`'"]*\(\.\/\)\?[^ \t*`'"]*[./][^ \t*`'"]*[*`'"]*:\?\s*$/
syntax match fsrbHeader /^\s*\(#\{1,6}\s*\)\?\(File\|Filename\):\s*\S\+\s*$/

" Blocks: SEARCH body, then the separator opens the REPLACE body.
syntax region fsrbSearch matchgroup=fsrbSearchMarker
      \ start=/^\s*<\{5,9}\s*SEARCH>\?\s*$/
      \ start=/^\s*-\{3,}\s*SEARCH\s*$/
      \ end=/^\ze\s*=\{5,9}\s*$/
      \ contains=fsrbEscape,fsrbHint keepend nextgroup=fsrbReplace
syntax region fsrbReplace matchgroup=fsrbSeparator start=/^\s*=\{5,9}\s*$/
      \ matchgroup=fsrbReplaceMarker
      \ end=/^\s*>\{5,9}\s*REPLACE\s*$/
      \ end=/^\s*+\{3,}\s*REPLACE\s*$/
      \ contained contains=fsrbEscape keepend
" A Pyxis NEW_FILE body has no separator.
syntax region fsrbNewFile matchgroup=fsrbSearchMarker
      \ start=/^\s*<\{5,9}\s*NEW_FILE\s*$/
      \ matchgroup=fsrbReplaceMarker end=/^\s*>\{5,9}\s*NEW_FILE\s*$/
      \ contains=fsrbEscape keepend
syntax match fsrbEscape /^\s*\\\+\(<\{5,9}\s*\(SEARCH\|NEW_FILE\)\|=\{5,9}\|>\{5,9}\s*\(REPLACE\|NEW_FILE\)\)\s*$/ contained
" Roo Code line hints.
syntax match fsrbHint /^:\(start\|end\)_line:\d\+\s*$/ contained

highlight default link fsrbComment       Comment
highlight default link fsrbFence         PreProc
highlight default link fsrbHeader        Directory
highlight default link fsrbSearchMarker  DiffDelete
highlight default link fsrbReplaceMarker DiffAdd
highlight default link fsrbSeparator     DiffChange
" Colour schemes of Neovim 0.10+ have Added/Removed; older ones fall back.
let s:has = {g -> hlexists(g) && !empty(synIDattr(synIDtrans(hlID(g)), 'fg'))}
execute 'highlight default link fsrbSearch'  (s:has('Removed') ? 'Removed' : 'Comment')
execute 'highlight default link fsrbReplace' (s:has('Added') ? 'Added' : 'String')
execute 'highlight default link fsrbNewFile' (s:has('Added') ? 'Added' : 'String')
highlight default link fsrbEscape        SpecialChar
highlight default link fsrbHint          Special

let b:current_syntax = 'fsrb'
