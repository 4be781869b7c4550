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
-- and, beside them, command.lua (:Fsrb), preview.lua (:Fsrb preview),
-- chat.lua (chat answer buffers), ondisk.lua (the files patches edit),
-- paste.lua (:Fsrb paste) and health.lua (:checkhealth fsrb). Workspace
-- edits, the files patches edit and the server's commands are here still.
local M = {}

local config = require('fsrb.config')
local client = require('fsrb.client')

local uv = vim.uv or vim.loop -- vim.loop is deprecated from 0.10 on
local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

local function notify(msg, level)
  vim.notify('fsrb: ' .. msg, level or vim.log.levels.INFO)
end

-- The plugin's state, kept by the module that owns it and read (and
-- written) here as fields of this table, as before the modules were split:
-- `config` (the options in force), who set the plugin up, and whether a
-- server that cannot start was reported.
local fields = {
  config = { config, 'options' },
  _setup_by = { config, 'setup_by' },
  _warned = { client, 'warned' },
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

-- Workspace edits -----------------------------------------------------------

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function mkdir_p(dir)
  if dir == nil or dir == '' or exists(dir) then
    return true
  end
  return vim.fn.mkdir(dir, 'p') == 1
end

--- Prepares a WorkspaceEdit for Neovim's applier and returns the files it
--- creates. A new file becomes a buffer, not a file: Neovim's applier
--- would write it empty to disk at once, and an Apply discarded with :qa!
--- would leave it there. Its text edits land in that buffer, which :w or
--- :wall writes, creating its folder then. A CreateFile with
--- ignoreIfExists of a folder that exists is dropped (the server sends one
--- of the workspace folder to VS Code only; Neovim would only add a
--- buffer named after the folder). Renames get their folder first (Neovim
--- 0.7 does not make it, and the whole edit fails).
function M.prepare_edit(edit)
  local created = {}
  local changes = (edit or {}).documentChanges
  if not changes then
    return created
  end
  local kept = {}
  for _, change in ipairs(changes) do
    local keep = true
    if change.kind == 'create' then
      local opts = change.options or {}
      local fname = vim.uri_to_fname(change.uri)
      if opts.ignoreIfExists and not opts.overwrite and vim.fn.isdirectory(fname) == 1 then
        keep = false
      elseif not exists(fname) then
        keep = false
        local b = vim.fn.bufadd(fname)
        vim.fn.bufload(b)
        vim.bo[b].buflisted = true
        created[fname] = b
      end
    elseif change.kind == 'rename' then
      mkdir_p(vim.fn.fnamemodify(vim.uri_to_fname(change.newUri), ':h'))
    end
    if keep then
      table.insert(kept, change)
    end
  end
  if #kept < #changes then
    edit.documentChanges = kept
  end
  return created
end

--- After the edit, for each file it created (a buffer): marked modified,
--- so that :wall writes it even empty, with its folder made on that write;
--- and "text\n" inserted into the empty buffer holds the lines {text, ''},
--- which would be written as "text\n\n" (Neovim 0.7): that last empty
--- line is dropped, or, for content without a final line break, no line
--- break is written.
function M.finish_edit(created)
  for fname, bufnr in pairs(created or {}) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      local n = vim.api.nvim_buf_line_count(bufnr)
      local last = vim.api.nvim_buf_get_lines(bufnr, n - 1, n, false)[1]
      if n > 1 and last == '' then
        vim.api.nvim_buf_set_lines(bufnr, n - 1, n, false, {})
      elseif last ~= '' then
        vim.bo[bufnr].eol = false
        vim.bo[bufnr].fixeol = false
      end
      vim.bo[bufnr].modified = true
      vim.api.nvim_create_autocmd('BufWritePre', {
        buffer = bufnr,
        once = true,
        callback = function()
          mkdir_p(vim.fn.fnamemodify(fname, ':h'))
        end,
        desc = 'fsrb: the folder of a file an edit created, made when it is written',
      })
    end
  end
end

--- Applies a WorkspaceEdit the way the plugin does for the server's
--- workspace/applyEdit: Neovim's own applier between the two steps above.
function M.apply_workspace_edit(edit, offset_encoding)
  local created = M.prepare_edit(edit)
  vim.lsp.util.apply_workspace_edit(edit, offset_encoding or 'utf-16')
  M.finish_edit(created)
  M.sync_targets()
  pcall(vim.api.nvim_exec_autocmds, 'User', { pattern = 'FsrbEditApplied', modeline = false })
end

-- The files patches edit ----------------------------------------------------

local function inside(fname, root)
  if not root or root == '' then
    return false
  end
  root = root:gsub('/+$', '')
  return vim.startswith(fname, root .. '/')
end

--- Attaches the fsrb clients to bufnr when it is a file inside their root
--- (see `sync_targets`), so that its didOpen/didChange/didSave reach the
--- server. A served buffer (a patch) is left to attach().
function M.sync_buffer(bufnr)
  if not config.options.sync_targets or not vim.api.nvim_buf_is_valid(bufnr) or not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  if vim.bo[bufnr].buftype ~= '' or config.served(bufnr) then
    return
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return
  end
  local fname = vim.fn.fnamemodify(name, ':p')
  local real = uv.fs_realpath(fname)
  -- Which clients have it: Neovim 0.7 detaches a buffer that :edit!
  -- reloads but leaves it in client.attached_buffers.
  local has = {}
  for _, c in ipairs(M.clients(bufnr)) do
    has[c.id] = true
  end
  local attached = false
  for _, c in ipairs(M.clients()) do
    local root = c.config and c.config.root_dir
    if not client.stopped(c) and (inside(fname, root) or (real and inside(real, uv.fs_realpath(root or '') or root))) then
      if not has[c.id] then
        vim.lsp.buf_attach_client(bufnr, c.id)
      end
      attached = true
    end
  end
  if attached then
    require('fsrb.ondisk').watch(bufnr) -- its file changed by other programs
  end
end

--- sync_buffer for every loaded buffer.
function M.sync_targets()
  if not config.options.sync_targets then
    return
  end
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      M.sync_buffer(b)
    end
  end
end

-- Commands ------------------------------------------------------------------

-- quiet: on_done reports an error itself.
local function execute(bufnr, command, arguments, on_done, quiet)
  local c = client.client_for(bufnr)
  if not c then
    return false
  end
  -- The files as the disk has them now (lua/fsrb/ondisk.lua).
  require('fsrb.ondisk').refresh(c)
  -- No bufnr: the client then sends the changes of every buffer it still
  -- holds back (debounced didChange), not only the patch's. The commands
  -- work on the files the patch edits: one typed into just before must
  -- count (:Fsrb apply right after an edit, the preview's check).
  client.request(c, 'workspace/executeCommand', { command = command, arguments = arguments }, function(err, result)
    if err and not quiet then
      notify(command .. ' failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    end
    M.last_command = { command = command, arguments = arguments, err = err, result = result }
    pcall(vim.api.nvim_exec_autocmds, 'User', { pattern = 'FsrbCommandDone', modeline = false })
    if on_done then
      on_done(err, result)
    end
  end)
  return true
end

--- Applies every block of the patch in bufnr (all or nothing).
function M.apply_all(bufnr, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  return execute(bufnr, 'fsrb.applyAll', { vim.uri_from_bufnr(bufnr) }, on_done)
end

-- The number of the block at (0-based) line, from the server's code lenses
-- ("#N status" sits on each block's SEARCH marker), else by counting SEARCH
-- markers.
local function block_at(bufnr, line)
  local c = client.clients(bufnr)[1]
  if c then
    local res = client.request_sync(c, 'textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, 3000, bufnr)
    if res and res.result then
      local best, best_line
      for _, lens in ipairs(res.result) do
        local n = lens.command and lens.command.arguments and tonumber(lens.command.arguments[2])
        local l = lens.range.start.line
        if n and l <= line and (best_line == nil or l >= best_line) then
          best, best_line = n, l
        end
      end
      if best then
        return best
      end
    end
  end
  local n = 0
  for _, text in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, line + 1, false)) do
    if text:match('^%s*<<<<<+%s*SEARCH') or text:match('^%s*<<<<<+%s*NEW_FILE') or text:match('^%s*%-%-%-+%s*SEARCH') then
      n = n + 1
    end
  end
  return n > 0 and n or 1
end

--- Applies block n (default: the block under the cursor).
function M.apply_block(bufnr, n, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not n then
    n = block_at(bufnr, vim.api.nvim_win_get_cursor(0)[1] - 1)
  end
  return execute(bufnr, 'fsrb.applyBlock', { vim.uri_from_bufnr(bufnr), n }, on_done)
end

--- Reverts every block of the patch in bufnr (all or nothing): the server
--- refuses unless every block is applied.
function M.revert_all(bufnr, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  return execute(bufnr, 'fsrb.revertAll', { vim.uri_from_bufnr(bufnr) }, on_done)
end

--- Reverts block n (default: the block under the cursor).
function M.revert_block(bufnr, n, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not n then
    n = block_at(bufnr, vim.api.nvim_win_get_cursor(0)[1] - 1)
  end
  return execute(bufnr, 'fsrb.revertBlock', { vim.uri_from_bufnr(bufnr), n }, on_done)
end

-- The patch's state in a line: the server's summary ("ready: 4 of 5
-- blocks, #3 skipped"), or from an older server its state.
local function summary_of(result)
  if type(result.summary) == 'string' and result.summary ~= '' then
    return result.summary
  end
  return tostring(result.state)
end

-- Skips block n (default: the block under the cursor) out of :Fsrb apply,
-- or includes it again; the server keeps the choice while the patch is
-- open and answers the patch's state, which is shown.
local function skip_or_include(command, bufnr, n, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not n then
    n = block_at(bufnr, vim.api.nvim_win_get_cursor(0)[1] - 1)
  end
  return execute(bufnr, command, { vim.uri_from_bufnr(bufnr), n }, function(err, result)
    if not err and type(result) == 'table' then
      notify(summary_of(result))
      if config.options.codelens then
        client.refresh_lenses(bufnr)
      end
    end
    if on_done then
      on_done(err, result)
    end
  end)
end

--- Leaves block n (default: the block under the cursor) out of "apply all".
function M.skip_block(bufnr, n, on_done)
  return skip_or_include('fsrb.skipBlock', bufnr, n, on_done)
end

--- Puts a skipped block n (default: the block under the cursor) back.
function M.include_block(bufnr, n, on_done)
  return skip_or_include('fsrb.includeBlock', bufnr, n, on_done)
end

--- Asks the server for the patch's state: on_done(err, { state = 'ready' |
--- 'applied' | ..., summary = 'ready: 4 of 5 blocks, #3 skipped', skipped =
--- { 3 }, blocks = { { number, path, state, line }, ... } }).
function M.status(bufnr, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  return execute(bufnr, 'fsrb.status', { vim.uri_from_bufnr(bufnr) }, on_done)
end

--- Asks the server what applying every block (every block not applied yet)
--- would do: on_done(err, { files = { { uri, path, operation = 'modify' |
--- 'create' | 'delete', current, proposed }, ... } }). An error is left to
--- on_done (an older server answers "unknown command"). :Fsrb preview
--- (lua/fsrb/preview.lua) shows it.
function M.preview(bufnr, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  return execute(bufnr, 'fsrb.preview', { vim.uri_from_bufnr(bufnr) }, on_done, true)
end

--- An on_done of status(): the patch's state and each block's, said.
function M.show_status(err, result)
  if err or type(result) ~= 'table' then
    return
  end
  local parts = {}
  for _, b in ipairs(result.blocks or {}) do
    table.insert(parts, string.format('#%s %s %s', tostring(b.number), tostring(b.state), tostring(b.path)))
  end
  notify(string.format('%s; %s', summary_of(result), #parts > 0 and table.concat(parts, ', ') or 'no blocks'))
end

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
        M.sync_buffer(args.buf)
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
