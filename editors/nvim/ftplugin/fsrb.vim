if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1
" Outside bodies, '#' lines are comments in a patch.
setlocal commentstring=#\ %s
setlocal comments=:#
" Bodies hold code exactly as written: no automatic wrapping or indenting.
setlocal formatoptions-=t textwidth=0 noautoindent nosmartindent nocindent indentexpr=
let b:undo_ftplugin = 'setlocal commentstring< comments< formatoptions< textwidth< autoindent< smartindent< cindent< indentexpr<'
