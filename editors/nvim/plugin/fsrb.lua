-- fsrb: the :Fsrb command and the <Plug>(fsrb-…) mappings at startup (cheap:
-- nothing of vim.lsp is loaded), and the plugin set up from vim.g.fsrb when
-- the first patch buffer opens, unless require('fsrb').setup() or
-- vim.lsp.enable('fsrb') (lsp/fsrb.lua) already did. :help fsrb-setup
if vim.g.loaded_fsrb then
  return
end
vim.g.loaded_fsrb = 1

require('fsrb.command').create()

local config = require('fsrb.config')
if config.setup_by then
  return
end
vim.api.nvim_create_autocmd('FileType', {
  group = vim.api.nvim_create_augroup('fsrb_auto', { clear = true }),
  pattern = config.filetypes(), -- chat answer buffers too (lua/fsrb/chat.lua)
  once = true, -- setup() installs its own FileType autocommand
  callback = function()
    require('fsrb').auto_setup('vim.g.fsrb') -- attaches this buffer too
  end,
  desc = 'fsrb: set the plugin up from vim.g.fsrb on the first patch',
})
