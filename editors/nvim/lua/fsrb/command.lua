-- :Fsrb {subcommand} [args], its completion, the <Plug> mappings and the old
-- :FsrbX commands (deprecated aliases). Light on purpose: plugin/fsrb.lua
-- loads it at startup, and the modules that load vim.lsp (lua/fsrb/actions.lua,
-- lua/fsrb/client.lua) wait until a subcommand runs.
local M = {}

local config = require('fsrb.config')

local unpack = table.unpack or unpack

local function actions()
  return require('fsrb.actions')
end

local function client()
  return require('fsrb.client')
end

local function err(msg)
  vim.notify('fsrb: ' .. msg, vim.log.levels.ERROR)
end

-- A block number argument: nil when absent, false when not a number.
local function block_arg(args)
  if args[1] == nil then
    return nil
  end
  local n = tonumber(args[1])
  if not n or n < 1 or n % 1 ~= 0 then
    err(string.format("'%s' is not a block number", args[1]))
    return false
  end
  return n
end

-- In completion order.
M.order = { 'apply', 'apply-block', 'skip', 'include', 'preview', 'revert', 'revert-block', 'status', 'paste', 'log', 'restart' }

-- The preview the current tab page shows (lua/fsrb/preview.lua), or nil;
-- loads nothing when no preview was ever opened.
local function in_preview()
  local preview = package.loaded['fsrb.preview']
  return preview and preview.current() or nil
end

-- The *-block and revert subcommands have no meaning in a preview (it shows
-- the whole change).
local function not_in_preview(name)
  if in_preview() then
    err(string.format("':Fsrb %s' does not work in the preview, which shows the whole change: :Fsrb apply applies it all, :tabclose closes it", name))
    return false
  end
  return true
end

-- The patch a command works on: the current buffer, or, from a buffer
-- that is no patch (avante's input window), the one chat answer shown in
-- the tab page (lua/fsrb/chat.lua).
local function patch_buf()
  if not config.served(vim.api.nvim_get_current_buf()) then
    return require('fsrb.chat').shown() or 0
  end
  return 0
end

M.subcommands = {
  apply = {
    desc = 'apply every block of this patch (all or nothing); in the preview, its patch',
    run = function()
      local p = in_preview()
      if p then
        require('fsrb.preview').apply(p)
      else
        actions().apply_all(patch_buf())
      end
    end,
  },
  ['apply-block'] = {
    desc = 'apply block N (default: the block under the cursor)',
    nargs = '?',
    run = function(args)
      local n = block_arg(args)
      if n ~= false and not_in_preview('apply-block') then
        actions().apply_block(0, n)
      end
    end,
  },
  skip = {
    desc = 'leave block N (default: the block under the cursor) out of :Fsrb apply',
    nargs = '?',
    run = function(args)
      local n = block_arg(args)
      if n ~= false and not_in_preview('skip') then
        actions().skip_block(0, n)
      end
    end,
  },
  include = {
    desc = 'put a skipped block N (default: the block under the cursor) back',
    nargs = '?',
    run = function(args)
      local n = block_arg(args)
      if n ~= false and not_in_preview('include') then
        actions().include_block(0, n)
      end
    end,
  },
  revert = {
    desc = 'revert every block of this applied patch (all or nothing)',
    run = function()
      if not_in_preview('revert') then
        actions().revert_all(patch_buf())
      end
    end,
  },
  preview = {
    desc = 'show the whole change, one diff per file, before applying it',
    run = function()
      require('fsrb.preview').open(patch_buf())
    end,
  },
  ['revert-block'] = {
    desc = 'revert block N (default: the block under the cursor)',
    nargs = '?',
    run = function(args)
      local n = block_arg(args)
      if n ~= false and not_in_preview('revert-block') then
        actions().revert_block(0, n)
      end
    end,
  },
  status = {
    desc = "show the patch's state and each block's",
    run = function()
      local p = in_preview()
      actions().status(p and p.patch or patch_buf(), actions().show_status)
    end,
  },
  paste = {
    desc = 'open a register (default: the clipboard) as a patch that is never written',
    nargs = '?',
    run = function(args)
      if args[1] and #args[1] ~= 1 then
        err(string.format("'%s' is not a register name", args[1]))
        return
      end
      require('fsrb.paste').open(args[1])
    end,
  },
  log = {
    desc = "open Neovim's LSP log",
    run = function()
      vim.cmd('edit ' .. vim.fn.fnameescape(client().log_path()))
    end,
  },
  restart = {
    desc = 'restart the language server',
    run = function()
      client().restart()
    end,
  },
}

--- Runs `:Fsrb {args}`; no subcommand is `status`.
function M.run(fargs)
  local name = fargs[1] or 'status'
  local args = { unpack(fargs, 2) }
  local sub = M.subcommands[name]
  if not sub then
    err(string.format("unknown subcommand '%s'; one of: %s", name, table.concat(M.order, ', ')))
    return
  end
  if not sub.nargs and #args > 0 then
    err(string.format("'%s' takes no argument", name))
    return
  end
  if sub.nargs == '?' and #args > 1 then
    err(string.format("'%s' takes at most one argument", name))
    return
  end
  sub.run(args)
end

--- Completion of `:Fsrb`: the subcommands, then nothing (block numbers are
--- typed).
function M.complete(arglead, cmdline, cursorpos)
  local before = cmdline:sub(1, cursorpos)
  local words = vim.split(vim.trim((before:gsub('^%s*%S+', '', 1))), '%s+', { trimempty = true })
  -- The subcommand position: no word yet, or the one being typed.
  if #words == 0 or (#words == 1 and arglead ~= '') then
    local out = {}
    for _, name in ipairs(M.order) do
      if vim.startswith(name, arglead) then
        table.insert(out, name)
      end
    end
    return out
  end
  return {}
end

-- The commands before :Fsrb, kept as aliases that say once that they are
-- deprecated (:help fsrb-deprecated).
M.aliases = {
  FsrbApplyAll = 'apply',
  FsrbApplyBlock = 'apply-block',
  FsrbRevertAll = 'revert',
  FsrbRevertBlock = 'revert-block',
  FsrbStatus = 'status',
  FsrbRestart = 'restart',
  FsrbLog = 'log',
}
M._told = {}

-- <Plug> mappings (normal mode); a count picks the block of the *-block ones.
M.plugs = {
  ['<Plug>(fsrb-apply)'] = 'apply',
  ['<Plug>(fsrb-apply-block)'] = 'apply-block',
  ['<Plug>(fsrb-preview)'] = 'preview',
  ['<Plug>(fsrb-revert)'] = 'revert',
  ['<Plug>(fsrb-revert-block)'] = 'revert-block',
  ['<Plug>(fsrb-skip)'] = 'skip',
  ['<Plug>(fsrb-include)'] = 'include',
  ['<Plug>(fsrb-status)'] = 'status',
}

--- Defines :Fsrb, the aliases and the <Plug> mappings (again: harmless).
function M.create()
  local create = vim.api.nvim_create_user_command
  create('Fsrb', function(o)
    M.run(o.fargs)
  end, {
    nargs = '*',
    complete = M.complete,
    desc = 'fsrb: apply | apply-block [N] | skip [N] | include [N] | preview | revert | revert-block [N] | status | paste [REG] | log | restart',
  })
  for old, sub in pairs(M.aliases) do
    local nargs = M.subcommands[sub].nargs or 0
    create(old, function(o)
      if not M._told[old] then
        M._told[old] = true
        vim.notify(string.format('fsrb: :%s is deprecated, use :Fsrb %s (:help fsrb-deprecated)', old, sub), vim.log.levels.WARN)
      end
      M.run({ sub, unpack(o.fargs) })
    end, { nargs = nargs, desc = 'fsrb: deprecated, use :Fsrb ' .. sub })
  end
  for lhs, sub in pairs(M.plugs) do
    vim.keymap.set('n', lhs, function()
      local args = { sub }
      if M.subcommands[sub].nargs and vim.v.count > 0 then
        table.insert(args, tostring(vim.v.count))
      end
      M.run(args)
    end, { silent = true, desc = 'fsrb: ' .. M.subcommands[sub].desc })
  end
end

return M
