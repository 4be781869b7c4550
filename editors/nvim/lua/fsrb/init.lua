-- fsrb for Neovim: starts (or reuses) the fsrb-lsp language server for
-- *.fsrb patch documents (and Markdown, when asked), and adds :FsrbApplyAll,
-- :FsrbApplyBlock, :FsrbRestart and :FsrbLog.
--
-- Works on Neovim 0.7 (Debian 12's 0.7.2) and newer: vim.lsp.start where it
-- exists (0.8+), vim.lsp.start_client + buf_attach_client before that.
local M = {}

local defaults = {
  -- The server command; the first word is looked up on $PATH.
  cmd = { 'fsrb-lsp' },
  -- Filetypes served. Set `markdown = true` to serve Markdown chat answers too.
  filetypes = { 'fsrb' },
  markdown = false,
  -- Server settings (also sent as initializationOptions).
  fuzzy = false,
  -- The workspace root of a patch: a function(bufnr) -> path, or nil for the
  -- nearest folder above the patch holding one of `root_markers`, else the
  -- current directory (the fsrb CLI applies patches to the working directory).
  root_dir = nil,
  root_markers = { '.git', '.hg', '.jj', '.svn' },
  -- Passed on to the client.
  on_attach = nil,
  capabilities = nil,
  handlers = nil,
  -- Show the server's code lenses (block status, "Apply") and keep them fresh.
  codelens = true,
  -- The client's name (one client per root).
  name = 'fsrb',
}

M.config = vim.deepcopy(defaults)
M._did_setup = false
M._clients = {} -- root_dir -> client id (Neovim 0.7 path)

local uv = vim.loop
local has_start = vim.lsp.start ~= nil -- Neovim 0.8+

-- Client methods take self from Neovim 0.11 on (client:request), and are
-- plain closures before (client.request).
local colon = vim.fn.has('nvim-0.11') == 1
local function request(client, ...)
  if colon then
    return client:request(...)
  end
  return client.request(...)
end
local function request_sync(client, ...)
  if colon then
    return client:request_sync(...)
  end
  return client.request_sync(...)
end

local function notify(msg, level)
  vim.notify('fsrb: ' .. msg, level or vim.log.levels.INFO)
end

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

--- Prepares a WorkspaceEdit for Neovim's applier: creates the folders of
--- CreateFile operations (Neovim 0.7 opens the new file without creating its
--- folder, and the whole edit fails) and returns the files it creates.
function M.prepare_edit(edit)
  local created = {}
  for _, change in ipairs((edit or {}).documentChanges or {}) do
    if change.kind == 'create' then
      local fname = vim.uri_to_fname(change.uri)
      mkdir_p(vim.fn.fnamemodify(fname, ':h'))
      local st = uv.fs_stat(fname)
      if not st or st.size == 0 then
        created[fname] = true
      end
    elseif change.kind == 'rename' then
      mkdir_p(vim.fn.fnamemodify(vim.uri_to_fname(change.newUri), ':h'))
    end
  end
  return created
end

--- After the edit: a buffer of a new, empty file that received "text\n"
--- holds the lines {text, ''} and would be written as "text\n\n" (Neovim
--- 0.7); drop that last empty line, or, for content without a final line
--- break, write none.
function M.finish_edit(created)
  for fname in pairs(created or {}) do
    local bufnr = vim.fn.bufnr(fname)
    if bufnr > 0 and vim.api.nvim_buf_is_loaded(bufnr) then
      local n = vim.api.nvim_buf_line_count(bufnr)
      local last = vim.api.nvim_buf_get_lines(bufnr, n - 1, n, false)[1]
      if n > 1 and last == '' then
        vim.api.nvim_buf_set_lines(bufnr, n - 1, n, false, {})
      elseif last ~= '' then
        vim.bo[bufnr].eol = false
        vim.bo[bufnr].fixeol = false
      end
    end
  end
end

--- Applies a WorkspaceEdit the way the plugin does for the server's
--- workspace/applyEdit and for code actions.
function M.apply_workspace_edit(edit, offset_encoding)
  local created = M.prepare_edit(edit)
  M._orig_apply(edit, offset_encoding or 'utf-16')
  M.finish_edit(created)
  pcall(vim.api.nvim_exec_autocmds, 'User', { pattern = 'FsrbEditApplied', modeline = false })
end

-- Code actions apply their edit through vim.lsp.util.apply_workspace_edit
-- directly (no handler to hook), so the plugin wraps it once. The wrapper
-- only adds folder creation and the new-file line fix; everything else is
-- Neovim's own code.
local function wrap_util()
  if M._orig_apply then
    return
  end
  M._orig_apply = vim.lsp.util.apply_workspace_edit
  vim.lsp.util.apply_workspace_edit = function(edit, offset_encoding, ...)
    local created = M.prepare_edit(edit)
    local r = M._orig_apply(edit, offset_encoding, ...)
    M.finish_edit(created)
    return r
  end
end

local function apply_edit_handler(err, result, ctx, config)
  if err or not result or not result.edit then
    return vim.lsp.handlers['workspace/applyEdit'](err, result, ctx, config)
  end
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local enc = client and client.offset_encoding or 'utf-16'
  local ok, why = pcall(M.apply_workspace_edit, result.edit, enc)
  if not ok then
    notify('could not apply the edit: ' .. tostring(why), vim.log.levels.ERROR)
    return { applied = false, failureReason = tostring(why) }
  end
  return { applied = true }
end

-- Clients -------------------------------------------------------------------

local function find_root(bufnr)
  local cfg = M.config
  if type(cfg.root_dir) == 'function' then
    local r = cfg.root_dir(bufnr)
    if r then
      return r
    end
  elseif type(cfg.root_dir) == 'string' then
    return cfg.root_dir
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  local cwd = vim.fn.getcwd()
  -- A patch inside the working directory belongs to it.
  if dir == cwd or vim.startswith(dir, cwd .. '/') then
    return cwd
  end
  while dir and dir ~= '' do
    for _, m in ipairs(cfg.root_markers) do
      if exists(dir .. '/' .. m) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      break
    end
    dir = parent
  end
  return cwd
end

local function server_settings()
  return { fuzzy = M.config.fuzzy }
end

local function client_config(root)
  local cfg = M.config
  local handlers = vim.tbl_extend('force', {
    ['workspace/applyEdit'] = apply_edit_handler,
  }, cfg.handlers or {})
  return {
    name = cfg.name,
    cmd = cfg.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ':t') } },
    init_options = server_settings(),
    settings = { fsrb = server_settings() },
    handlers = handlers,
    capabilities = cfg.capabilities,
    on_attach = cfg.on_attach,
    on_exit = function(code, signal)
      if code ~= 0 and code ~= nil then
        vim.schedule(function()
          notify(string.format('the server exited with code %d (signal %d); :FsrbLog shows its log', code, signal or 0), vim.log.levels.WARN)
        end)
      end
    end,
  }
end

--- Whether the server command can run.
function M.executable()
  local cmd = M.config.cmd
  return type(cmd) == 'table' and cmd[1] ~= nil and vim.fn.executable(cmd[1]) == 1
end

--- Starts or reuses the client for bufnr; returns its id.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.api.nvim_buf_get_option(bufnr, 'buftype') ~= '' then
    return nil
  end
  if not M.executable() then
    if not M._warned then
      M._warned = true
      notify(string.format("cannot start the language server: '%s' is not executable (install it with `go install github.com/fsrb/fsrb/cmd/fsrb-lsp@latest`, or set require('fsrb').setup{ cmd = {...} }); :checkhealth fsrb", tostring((M.config.cmd or {})[1])), vim.log.levels.ERROR)
    end
    return nil
  end
  local root = find_root(bufnr)
  if has_start then
    return vim.lsp.start(client_config(root), { bufnr = bufnr })
  end
  local id = M._clients[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(client_config(root))
    if not id then
      notify('could not start ' .. table.concat(M.config.cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
    M._clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- The fsrb clients attached to bufnr (or all, with bufnr == nil).
function M.clients(bufnr)
  local out = {}
  local list
  if vim.lsp.get_clients then -- 0.10+
    list = vim.lsp.get_clients({ bufnr = bufnr })
  elseif bufnr then
    list = vim.lsp.buf_get_clients(bufnr)
  else
    list = vim.lsp.get_active_clients()
  end
  for _, c in pairs(list) do
    if c.name == M.config.name then
      table.insert(out, c)
    end
  end
  return out
end

local function client_for(bufnr)
  local c = M.clients(bufnr)[1]
  if not c then
    notify('no fsrb language server is attached to this buffer', vim.log.levels.WARN)
  end
  return c
end

-- Commands ------------------------------------------------------------------

local function execute(bufnr, command, arguments, on_done)
  local client = client_for(bufnr)
  if not client then
    return false
  end
  request(client, 'workspace/executeCommand', { command = command, arguments = arguments }, function(err, result)
    if err then
      notify(command .. ' failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    end
    M.last_command = { command = command, arguments = arguments, err = err, result = result }
    pcall(vim.api.nvim_exec_autocmds, 'User', { pattern = 'FsrbCommandDone', modeline = false })
    if on_done then
      on_done(err, result)
    end
  end, bufnr)
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
  local client = M.clients(bufnr)[1]
  if client then
    local res = request_sync(client, 'textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, 3000, bufnr)
    if res and res.result then
      local best, best_line
      for _, lens in ipairs(res.result) do
        local n = lens.command and lens.command.title and tonumber(lens.command.title:match('^#(%d+)'))
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

--- Stops the fsrb clients and attaches the served buffers again.
function M.restart()
  local bufs = {}
  for _, c in ipairs(M.clients()) do
    for b in pairs(c.attached_buffers or {}) do
      bufs[b] = true
    end
    vim.lsp.stop_client(c.id)
  end
  M._clients = {}
  vim.defer_fn(function()
    for b in pairs(bufs) do
      if vim.api.nvim_buf_is_valid(b) then
        M.attach(b)
      end
    end
  end, 500)
end

local function create_commands()
  local cmd = vim.api.nvim_create_user_command
  cmd('FsrbApplyAll', function()
    M.apply_all(0)
  end, { desc = 'fsrb: apply every block of this patch (all or nothing)' })
  cmd('FsrbApplyBlock', function(o)
    M.apply_block(0, tonumber(o.args))
  end, { nargs = '?', desc = 'fsrb: apply block N (default: the block under the cursor)' })
  cmd('FsrbRestart', function()
    M.restart()
  end, { desc = 'fsrb: restart the language server' })
  cmd('FsrbLog', function()
    vim.cmd('edit ' .. vim.fn.fnameescape(vim.lsp.get_log_path()))
  end, { desc = "fsrb: open Neovim's LSP log" })
end

local function filetypes()
  local fts = vim.deepcopy(M.config.filetypes)
  if M.config.markdown and not vim.tbl_contains(fts, 'markdown') then
    table.insert(fts, 'markdown')
  end
  return fts
end

--- Configures the plugin. Call once, e.g. require('fsrb').setup{}.
function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  if type(M.config.cmd) == 'string' then
    M.config.cmd = { M.config.cmd }
  end
  M._warned = false
  M._did_setup = true
  wrap_util()
  create_commands()
  local group = vim.api.nvim_create_augroup('fsrb', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = filetypes(),
    callback = function(args)
      M.attach(args.buf)
    end,
    desc = 'fsrb: start or reuse the language server',
  })
  if M.config.codelens then
    -- Block statuses as code lenses ("#2 2 matches", "#1 applies at …"),
    -- asked again whenever the server re-validates the patch.
    vim.api.nvim_create_autocmd({ 'BufEnter', 'DiagnosticChanged' }, {
      group = group,
      callback = function(args)
        local b = args.buf
        if b == vim.api.nvim_get_current_buf() and vim.tbl_contains(filetypes(), vim.bo[b].filetype) and #M.clients(b) > 0 then
          pcall(vim.lsp.codelens.refresh)
        end
      end,
      desc = 'fsrb: refresh code lenses',
    })
  end
  -- Buffers already open when setup runs (lazy loading).
  local fts = filetypes()
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(fts, vim.api.nvim_buf_get_option(b, 'filetype')) then
      if vim.api.nvim_buf_get_option(b, 'filetype') == 'fsrb' and vim.b[b].current_syntax == nil then
        -- The plugin's syntax file was not on 'runtimepath' yet.
        vim.api.nvim_buf_call(b, function()
          vim.cmd('setlocal syntax=fsrb')
        end)
      end
      M.attach(b)
    end
  end
end

return M
