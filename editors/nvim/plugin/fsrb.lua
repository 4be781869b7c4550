-- fsrb: the :Fsrb command and the <Plug>(fsrb-…) mappings at startup (cheap:
-- nothing of vim.lsp is loaded), and the plugin set up from vim.g.fsrb when
-- the first patch buffer opens, unless require('fsrb').setup() or
-- vim.lsp.enable('fsrb') (lsp/fsrb.lua) already did. :help fsrb-setup
if vim.g.loaded_fsrb then
  return
end
vim.g.loaded_fsrb = 1

require('fsrb.command').create()

local loaded = package.loaded['fsrb']
if loaded and loaded._did_setup then
  return
end
local function patterns()
  local g = type(vim.g.fsrb) == 'table' and vim.g.fsrb or {}
  local fts = type(g.filetypes) == 'table' and vim.deepcopy(g.filetypes) or { 'fsrb' }
  if g.markdown then
    table.insert(fts, 'markdown')
  end
  -- Chat answer buffers (lua/fsrb/chat.lua).
  vim.list_extend(fts, require('fsrb.chat').filetypes(g))
  return fts
end
vim.api.nvim_create_autocmd('FileType', {
  group = vim.api.nvim_create_augroup('fsrb_auto', { clear = true }),
  pattern = patterns(),
  once = true, -- setup() installs its own FileType autocommand
  callback = function()
    require('fsrb').auto_setup('vim.g.fsrb') -- attaches this buffer too
  end,
  desc = 'fsrb: set the plugin up from vim.g.fsrb on the first patch',
})
