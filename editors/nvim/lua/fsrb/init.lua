-- fsrb for Neovim: starts (or reuses) the fsrb-lsp language server for
-- *.fsrb patch documents (and Markdown, when asked), keeps the server's view
-- of the files the patches edit in sync with their buffers, and backs the
-- :Fsrb command (lua/fsrb/command.lua).
--
-- Three ways in, one behaviour:
--   - nothing at all: plugin/fsrb.lua sets the plugin up, with the options of
--     vim.g.fsrb, when the first patch buffer opens;
--   - require('fsrb').setup(opts) (lazy.nvim's `opts`);
--   - Neovim 0.11+: vim.lsp.enable('fsrb'), which reads lsp/fsrb.lua; that
--     file sets the plugin up too (the files patches edit stay in sync).
--
-- Works on Neovim 0.7 (Debian 12's 0.7.2) and newer: vim.lsp.start where it
-- exists (0.8+), vim.lsp.start_client + buf_attach_client before that; no
-- API that 0.12 reports as deprecated.
--
-- This file is the plugin's public face (:help fsrb-api): setup() and the
-- functions of the Lua API, which delegate to the modules that own them:
--   lua/fsrb/config.lua   the options (required by every module, requires none)
--   lua/fsrb/client.lua   the client: start, reuse, root, handlers, restart
--   lua/fsrb/ondisk.lua   the buffers of the files patches edit
--   lua/fsrb/edit.lua     the server's workspace edits, applied
--   lua/fsrb/actions.lua  the server's commands: apply, revert, status, ...
-- and, beside them, command.lua (:Fsrb), preview.lua (:Fsrb preview),
-- chat.lua (chat answer buffers), paste.lua (:Fsrb paste) and health.lua
-- (:checkhealth fsrb). No module under lua/fsrb requires this one: only
-- the entry points, plugin/fsrb.lua and lsp/fsrb.lua, do.
local M = {}

local config = require('fsrb.config')
local client = require('fsrb.client')
local ondisk = require('fsrb.ondisk')
local edit = require('fsrb.edit')
local actions = require('fsrb.actions')

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

-- The plugin's state, kept by the module that owns it and read (and
-- written) here as fields of this table, as before the modules were split:
-- `config` (the options in force), `last_command` (:help fsrb-api), who
-- set the plugin up, and whether a server that cannot start was reported.
local fields = {
  config = { config, 'options' },
  _setup_by = { config, 'setup_by' },
  _warned = { client, 'warned' },
  last_command = { actions, 'last_command' },
}
setmetatable(M, {
  __index = function(_, key)
    if key == '_did_setup' then
      return config.setup_by ~= nil
    end
    local f = fields[key]
    if f then
      return f[1][f[2]]
    end
  end,
  __newindex = function(t, key, value)
    local f = fields[key]
    if f then
      f[1][f[2]] = value
    else
      rawset(t, key, value)
    end
  end,
})

-- The client (lua/fsrb/client.lua).
M.attach = client.attach
M.clients = client.clients
M.restart = client.restart
M.lsp_config = client.lsp_config
M.on_attach = client.on_attach
M.managed_by_enable = client.managed_by_enable
M.executable = client.executable
M.not_executable = client.not_executable
M.server_cmd = client.server_cmd
M.refresh_lenses = client.refresh_lenses
M.log_path = client.log_path
M.served = config.served

-- The files patches edit (lua/fsrb/ondisk.lua).
M.sync_buffer = ondisk.sync_buffer
M.sync_targets = ondisk.sync_targets

-- Workspace edits (lua/fsrb/edit.lua).
M.prepare_edit = edit.prepare_edit
M.finish_edit = edit.finish_edit
M.apply_workspace_edit = edit.apply_workspace_edit

-- The server's commands (lua/fsrb/actions.lua).
M.apply_all = actions.apply_all
M.apply_block = actions.apply_block
M.revert_all = actions.revert_all
M.revert_block = actions.revert_block
M.skip_block = actions.skip_block
M.include_block = actions.include_block
M.status = actions.status
M.preview = actions.preview
M.show_status = actions.show_status

--- Configures the plugin: optional (see the top of this file). opts override
--- vim.g.fsrb, which overrides the defaults. Calling it again reconfigures.
function M.setup(opts)
  M._setup(opts, 'setup()')
end

-- by: who set the plugin up ('setup()', 'vim.g.fsrb', "vim.lsp.enable('fsrb')").
function M._setup(opts, by)
  config.set(opts, by)
  client.warned = false
  require('fsrb.command').create()
  local opt = config.options
  local group = vim.api.nvim_create_augroup('fsrb', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = config.filetypes(),
    callback = function(args)
      client.on_filetype(args.buf)
    end,
    desc = 'fsrb: start or reuse the language server',
  })
  if opt.codelens and not has('0.12') then
    -- Block statuses as code lenses ("#2 2 matches", "#1 applies at …"),
    -- asked again whenever the server re-validates the patch. (0.12's
    -- vim.lsp.codelens.enable keeps them fresh by itself, as virtual lines.)
    -- Only for patches: the files attached for syncing get no lenses.
    vim.api.nvim_create_autocmd({ 'BufEnter', 'DiagnosticChanged' }, {
      group = group,
      callback = function(args)
        local b = args.buf
        -- 0.10 and 0.11 refresh any buffer: also a patch shown in another
        -- window, such as a chat answer streaming in while the cursor is
        -- in the code (0.7 refreshes the current buffer only).
        local shown = b == vim.api.nvim_get_current_buf() or (has('0.10') and vim.fn.bufwinid(b) ~= -1)
        if shown and config.served(b) and #client.clients(b) > 0 then
          client.refresh_lenses(b)
        end
      end,
      desc = 'fsrb: refresh code lenses',
    })
  end
  if has('0.8') then
    -- A client started by vim.lsp.enable('fsrb') runs no on_attach of the
    -- plugin's: the plugin's part of attaching happens here.
    vim.api.nvim_create_autocmd('LspAttach', {
      group = group,
      callback = function(args)
        local c = vim.lsp.get_client_by_id(args.data and args.data.client_id or -1)
        if c and c.name == config.options.name and client.managed_by_enable() then
          client.on_attach(c, args.buf)
        end
      end,
      desc = 'fsrb: code lenses and the files patches edit, for vim.lsp.enable',
    })
  end
  if opt.sync_targets then
    -- Files opened, created (also by a workspace edit, which loads them
    -- without a window) or renamed inside a client's root.
    vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile', 'BufFilePost', 'BufWritePost', 'FileType' }, {
      group = group,
      callback = function(args)
        ondisk.sync_buffer(args.buf)
      end,
      desc = "fsrb: keep the server's view of the files patches edit in sync",
    })
  end
  -- Buffers already open when setup runs (lazy loading).
  local fts = config.filetypes()
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(fts, vim.bo[b].filetype) then
      if vim.bo[b].filetype == 'fsrb' and vim.b[b].current_syntax == nil then
        -- The plugin's syntax file was not on 'runtimepath' yet.
        vim.api.nvim_buf_call(b, function()
          vim.cmd('setlocal syntax=fsrb')
        end)
      end
      if not client.managed_by_enable() or vim.bo[b].buftype ~= '' then
        client.attach(b)
      end
    end
  end
end

--- Sets the plugin up from vim.g.fsrb unless setup() already ran: what
--- plugin/fsrb.lua does on the first patch buffer, and lsp/fsrb.lua when
--- vim.lsp.enable('fsrb') reads it.
function M.auto_setup(by)
  if not config.setup_by then
    M._setup(nil, by or 'vim.g.fsrb')
  end
end

return M
