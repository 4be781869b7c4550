-- Neovim 0.11+: `vim.lsp.enable('fsrb')` is all it takes; Neovim reads this
-- file from the runtimepath. It sets the plugin up (from vim.g.fsrb, unless
-- require('fsrb').setup() ran), so that the :Fsrb command, the code lenses
-- and the sync of the files patches edit work as with setup(), and returns
-- the client config. Override any field with vim.lsp.config('fsrb', {...}).
-- :help fsrb-lsp-enable
local fsrb = require('fsrb')
fsrb.auto_setup("vim.lsp.enable('fsrb')")
return fsrb.lsp_config()
