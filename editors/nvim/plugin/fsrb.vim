" fsrb: the plugin does nothing until require('fsrb').setup{} runs, so that
" lazy.nvim / packer users can configure it. This file only guards against
" loading twice and records that the runtime files are on 'runtimepath'.
if exists('g:loaded_fsrb')
  finish
endif
let g:loaded_fsrb = 1
