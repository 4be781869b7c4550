-- The plugin's options and which buffers they serve. Every module of the
-- plugin reads them here, and this file requires none of them: the leaf
-- that plugin/fsrb.lua and lua/fsrb/command.lua can load at startup without
-- loading vim.lsp, and that no module has to reach the public table
-- (lua/fsrb/init.lua) for.
--
-- Options: the defaults, overridden by vim.g.fsrb, overridden by the opts
-- of require('fsrb').setup(opts). `options` is replaced by each setup;
-- read it when needed, never keep it.
local M = {}

M.defaults = {
  -- The server command; the first word is looked up on $PATH.
  cmd = { 'fsrb-lsp' },
  -- Filetypes served. Set `markdown = true` to serve Markdown chat answers too.
  filetypes = { 'fsrb' },
  markdown = false,
  -- Chat answer buffers (lua/fsrb/chat.lua): those of codecompanion.nvim,
  -- avante.nvim and CopilotChat.nvim are served unless `chat = false`;
  -- `chat_filetypes` adds the filetypes of other chat plugins.
  chat = true,
  chat_filetypes = {},
  -- Server settings (also sent as initializationOptions).
  fuzzy = false,
  -- The workspace root of a patch: a function(bufnr) -> path, or nil for the
  -- nearest folder above the patch (a chat buffer: above the current
  -- directory) holding one of `root_markers`, else the current directory:
  -- the fsrb CLI's rule, the top of the repository.
  root_dir = nil,
  root_markers = { '.git', '.hg', '.jj', '.svn' },
  -- Passed on to the client.
  on_attach = nil,
  capabilities = nil,
  handlers = nil,
  -- Show the server's code lenses (block status, "Apply") and keep them fresh.
  codelens = true,
  -- Show the server's inlay hints in patch buffers (where each block
  -- lands, at the end of its opening line), when it offers them. nil: where
  -- the lenses stand on lines of their own (Neovim 0.12+); 0.10 and 0.11
  -- draw lenses at the end of the line, where a hint would repeat them.
  -- true turns them on from 0.10 on.
  inlay_hints = nil,
  -- Diagnostic virtual text of the fsrb client, where it is on: nil shows
  -- warnings only (what no lens says: a syntax error a block leaves);
  -- errors and notes are what the block's lens says already ("#2 2
  -- matches"), on the same line on 0.7-0.11. Their sign, underline and
  -- float stay. true: as configured for every client; false: none.
  virtual_text = nil,
  -- Attach the client to every buffer of a file inside its root (the files
  -- patches edit), so that the server sees their unsaved text, their edits
  -- and their saves: without it, the server knows them from disk only and
  -- Neovim reports no writes to it. The server publishes no diagnostics for
  -- them and the plugin shows none.
  sync_targets = true,
  -- The client's name (one client per root).
  name = 'fsrb',
}

-- The chat plugins whose answer buffers are served unless `chat = false`
-- (their filetypes): codecompanion.nvim ("[CodeCompanion] N", renamed by
-- its title), avante.nvim ("AVANTE_RESULT", named after its filetype is
-- set), CopilotChat.nvim ("copilot-chat").
M.chat_plugins = { 'codecompanion', 'Avante', 'copilot-chat' }

--- The options of opts over vim.g.fsrb over the defaults.
function M.load(opts)
  local g = vim.g.fsrb
  local cfg = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), type(g) == 'table' and g or {}, opts or {})
  if type(cfg.cmd) == 'string' then
    cfg.cmd = { cfg.cmd }
  end
  return cfg
end

M.options = M.load()
-- Who set the plugin up: 'setup()', 'vim.g.fsrb' or
-- "vim.lsp.enable('fsrb')"; nil until it is (:checkhealth fsrb says it).
M.setup_by = nil

--- Takes the options of opts (see load), set up by `by`.
function M.set(opts, by)
  M.options = M.load(opts)
  M.setup_by = by
end

--- The filetypes of the chat buffers served by cfg (default: the options
--- in force): the known plugins' (unless `chat = false`) and
--- `chat_filetypes`. cfg may be vim.g.fsrb as the user wrote it.
function M.chat_filetypes(cfg)
  cfg = cfg or M.options
  local out = {}
  if cfg.chat ~= false then
    vim.list_extend(out, M.chat_plugins)
  end
  for _, ft in ipairs(type(cfg.chat_filetypes) == 'table' and cfg.chat_filetypes or {}) do
    if not vim.tbl_contains(out, ft) then
      table.insert(out, ft)
    end
  end
  return out
end

--- Every filetype served: `filetypes`, Markdown when `markdown` is on, and
--- the chat buffers'.
function M.filetypes()
  local cfg = M.options
  local fts = vim.deepcopy(cfg.filetypes)
  if cfg.markdown and not vim.tbl_contains(fts, 'markdown') then
    table.insert(fts, 'markdown')
  end
  for _, ft in ipairs(M.chat_filetypes(cfg)) do
    if not vim.tbl_contains(fts, ft) then
      table.insert(fts, ft)
    end
  end
  return fts
end

--- Whether bufnr is a patch the plugin serves (not a file patches edit):
--- a served filetype, or a :Fsrb paste buffer.
function M.served(bufnr)
  return vim.tbl_contains(M.filetypes(), vim.bo[bufnr].filetype) or vim.b[bufnr].fsrb_paste == true
end

return M
