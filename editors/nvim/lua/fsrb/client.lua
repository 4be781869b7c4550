-- The fsrb client: started or reused per root (vim.lsp.start on 0.8+,
-- vim.lsp.start_client before), or left to vim.lsp.enable('fsrb') on 0.11+
-- (lsp/fsrb.lua); its root, its capabilities and handlers, what the plugin
-- does when it attaches to a patch, its restart, and the shims its callers
-- need across Neovim 0.7-0.12. Everything it sets is the fsrb client's own
-- (its handlers, its diagnostic namespaces): no global handler or API of
-- Neovim is replaced.
--
-- The buffers of the files patches edit follow the client
-- (lua/fsrb/ondisk.lua), and the server's workspace edits are applied by
-- lua/fsrb/edit.lua; both build on this module, so it looks them up when
-- it calls them.
local M = {}

local config = require('fsrb.config')
local chat = require('fsrb.chat')

local uv = vim.uv or vim.loop -- vim.loop is deprecated from 0.10 on
local has_start = vim.lsp.start ~= nil -- Neovim 0.8+
local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

M.warned = false -- a server that cannot start was reported (once per setup)
local by_root = {} -- root_dir -> client id (Neovim 0.7 path)

--- Whether vim.lsp.enable('fsrb') (Neovim 0.11+, lsp/fsrb.lua) starts the
--- client: the plugin then leaves starting it to Neovim.
function M.managed_by_enable()
  if not has('0.11') then
    return false
  end
  if vim.lsp.is_enabled then
    return vim.lsp.is_enabled(config.options.name)
  end
  -- 0.11 before vim.lsp.is_enabled
  return type(vim.lsp._enabled_configs) == 'table' and vim.lsp._enabled_configs[config.options.name] ~= nil
end

-- Client methods take self from Neovim 0.11 on (client:request), and are
-- plain closures before (client.request).
local colon = has('0.11')

--- client:request(...) on every version.
function M.request(client, ...)
  if colon then
    return client:request(...)
  end
  return client.request(...)
end

--- client:request_sync(...) on every version.
function M.request_sync(client, ...)
  if colon then
    return client:request_sync(...)
  end
  return client.request_sync(...)
end

local function stop(client, force)
  if colon then
    client:stop(force)
  elseif client.stop then
    client.stop(force)
  else
    vim.lsp.stop_client(client.id, force)
  end
end

--- Whether client stopped or is stopping.
function M.stopped(client)
  if colon then
    return client:is_stopped()
  end
  return client.is_stopped()
end

--- The file of Neovim's LSP log.
function M.log_path()
  if vim.lsp.log and vim.lsp.log.get_filename then -- 0.9+
    return vim.lsp.log.get_filename()
  end
  return vim.lsp.get_log_path()
end

local function notify(msg, level)
  vim.notify('fsrb: ' .. msg, level or vim.log.levels.INFO)
end

local function exists(path)
  return uv.fs_stat(path) ~= nil
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
    if c.name == config.options.name then
      table.insert(out, c)
    end
  end
  return out
end

--- The fsrb client of bufnr, or nil, said.
function M.client_for(bufnr)
  local c = M.clients(bufnr)[1]
  if not c then
    notify('no fsrb language server is attached to this buffer', vim.log.levels.WARN)
  end
  return c
end

-- The server's workspace edits, applied by the plugin (lua/fsrb/edit.lua):
-- see capabilities().
local function apply_edit_handler(err, result, ctx, handler_config)
  if err or not result or not result.edit then
    return vim.lsp.handlers['workspace/applyEdit'](err, result, ctx, handler_config)
  end
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local enc = client and client.offset_encoding or 'utf-16'
  local ok, why = pcall(require('fsrb.edit').apply_workspace_edit, result.edit, enc)
  if not ok then
    notify('could not apply the edit: ' .. tostring(why), vim.log.levels.ERROR)
    return { applied = false, failureReason = tostring(why) }
  end
  return { applied = true }
end

-- The buffer of uri, or nil; never creates one (vim.uri_to_bufnr would).
local function buf_of_uri(uri)
  local ok, fname = pcall(vim.uri_to_fname, uri)
  if not ok then
    return nil
  end
  local b = vim.fn.bufnr(fname)
  return b > 0 and b or nil
end

-- Diagnostics for a file the client is attached to only to keep it in sync
-- are not the plugin's to show (the server sends none; a Markdown file with
-- blocks in it would get some while `markdown` is off).
local function publish_diagnostics_handler(err, result, ctx, handler_config)
  if result and result.uri and config.options.sync_targets then
    local b = buf_of_uri(result.uri)
    if b and vim.api.nvim_buf_is_loaded(b) and not config.served(b) then
      result = { uri = result.uri, version = result.version, diagnostics = {} }
    end
  end
  return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, handler_config)
end

-- Code lenses of a served buffer, fetched again (0.12: enabled for that
-- buffer only; the server's workspace/codeLens/refresh keeps them fresh).
function M.refresh_lenses(bufnr)
  if has('0.12') then
    pcall(vim.lsp.codelens.enable, true, { bufnr = bufnr })
  elseif has('0.10') then
    pcall(vim.lsp.codelens.refresh, { bufnr = bufnr })
  elseif bufnr == vim.api.nvim_get_current_buf() then
    pcall(vim.lsp.codelens.refresh) -- the current buffer
  end
end

local function find_root(bufnr)
  local cfg = config.options
  if type(cfg.root_dir) == 'function' then
    local r = cfg.root_dir(bufnr)
    if r then
      return r
    end
  elseif type(cfg.root_dir) == 'string' then
    return cfg.root_dir
  end
  -- One rule with the fsrb CLI: the repository around the patch (a chat
  -- buffer has no file: around the working directory), else the working
  -- directory.
  local name = vim.api.nvim_buf_get_name(bufnr)
  local cwd = vim.fn.getcwd()
  local dir = cwd
  if name ~= '' and not name:match('^%a[%w+.-]*://') then
    dir = vim.fn.fnamemodify(name, ':p:h')
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
  return { fuzzy = config.options.fuzzy }
end

-- Neovim (0.10-0.12) can leave an inlay hint drawn on a line whose hint
-- went away while the patch's text stayed the same (a block applied: the
-- server sends none for it): it redraws a line only when its cache, keyed
-- by the buffer's version, says so, and a redraw between a refresh and
-- its answer marks the line drawn with the old hint. When an answer has
-- hints on fewer lines than the one before, the plugin enables the
-- buffer's hints again, which starts that cache afresh and asks once more
-- (the same answer then, so it stops there).
local hint_lines = {} -- bufnr -> the lines of the last answer, as "1,4,9"
local function inlay_hint_handler(err, result, ctx, handler_config)
  local r = vim.lsp.handlers['textDocument/inlayHint'](err, result, ctx, handler_config)
  local b = ctx.bufnr
  if err or not b or not vim.api.nvim_buf_is_loaded(b) or not vim.lsp.inlay_hint.is_enabled({ bufnr = b }) then
    return r
  end
  local lines, seen = {}, {}
  for _, h in ipairs(result or {}) do
    local l = h.position.line
    if not seen[l] then
      seen[l] = true
      table.insert(lines, l)
    end
  end
  table.sort(lines)
  local before = hint_lines[b]
  hint_lines[b] = table.concat(lines, ',')
  if before and #lines < #vim.split(before, ',', { trimempty = true }) then
    vim.lsp.inlay_hint.enable(true, { bufnr = b })
  end
  return r
end

local function handlers()
  return vim.tbl_extend('force', {
    ['workspace/applyEdit'] = apply_edit_handler,
    ['textDocument/publishDiagnostics'] = publish_diagnostics_handler,
    ['textDocument/inlayHint'] = has('0.10') and inlay_hint_handler or nil,
  }, config.options.handlers or {})
end

-- Neovim applies a code action's edit with vim.lsp.util.apply_workspace_edit,
-- the function of every server, and has no hook for one client. So the
-- client declares experimental.fsrb.editsByCommand: the server's Apply and
-- Revert code actions then carry their command and no edit, and the edit
-- comes back as workspace/applyEdit, to apply_edit_handler. The defaults are
-- merged in: a table given to the client replaces them before 0.12.
local function capabilities()
  return vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(), config.options.capabilities or {}, {
    experimental = { fsrb = { editsByCommand = true } },
  })
end

local function on_exit(code, signal)
  if code ~= 0 and code ~= nil then
    vim.schedule(function()
      notify(string.format('the server exited with code %d (signal %d); :Fsrb log shows its log', code, signal or 0), vim.log.levels.WARN)
    end)
  end
end

-- The diagnostic virtual text of the client's namespaces (push and pull):
-- see `virtual_text` in the defaults. Only narrows what the user's own
-- configuration shows; never turns virtual text on.
local function narrow_virtual_text(client)
  local want = config.options.virtual_text
  local global = (vim.diagnostic.config() or {}).virtual_text
  if want == true or not global then
    return
  end
  if want == nil then
    want = vim.deepcopy(type(global) == 'table' and global or {})
    want.severity = { min = vim.diagnostic.severity.WARN, max = vim.diagnostic.severity.WARN }
  end
  for _, pull in ipairs({ false, true }) do
    local ok, ns = pcall(vim.lsp.diagnostic.get_namespace, client.id, pull)
    if ok and ns then
      vim.diagnostic.config({ virtual_text = want }, ns)
    end
  end
end

--- What the plugin does when the client attaches to a patch buffer (not to
--- the files patches edit): code lenses on, the user's on_attach, and the
--- files already open in the client's root attached (a new client).
function M.on_attach(client, bufnr, user_on_attach)
  if not config.served(bufnr) then
    return
  end
  vim.b[bufnr].fsrb_served = client.id -- done once per client and patch buffer
  if config.options.codelens then
    M.refresh_lenses(bufnr)
  end
  narrow_virtual_text(client)
  local caps = client.server_capabilities or {}
  local hints = config.options.inlay_hints
  if hints == nil then
    hints = has('0.12')
  end
  if hints and caps.inlayHintProvider and has('0.10') then
    pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr })
  end
  if user_on_attach then
    user_on_attach(client, bufnr)
  end
  vim.schedule(function()
    require('fsrb.ondisk').sync_targets()
  end)
end

local function client_config(root)
  local cfg = config.options
  return {
    name = cfg.name,
    cmd = cfg.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ':t') } },
    init_options = server_settings(),
    settings = { fsrb = server_settings() },
    handlers = handlers(),
    capabilities = capabilities(),
    get_language_id = chat.language_id,
    on_attach = function(client, bufnr)
      M.on_attach(client, bufnr, cfg.on_attach)
    end,
    on_exit = on_exit,
  }
end

--- Whether the server command can run.
function M.executable()
  local cmd = M.server_cmd()
  if type(cmd) == 'function' then
    return true -- an RPC function (0.11+): nothing to look up
  end
  return type(cmd) == 'table' and cmd[1] ~= nil and vim.fn.executable(cmd[1]) == 1
end

--- What to tell the user when the server command cannot run: the same
--- words when a patch opens and in :checkhealth fsrb.
function M.not_executable()
  local how = M.managed_by_enable() and "vim.lsp.config('fsrb', { cmd = {...} })" or 'vim.g.fsrb = { cmd = {...} }'
  return string.format("cannot start the language server: '%s' is not executable (install it with `go install github.com/fsrb/fsrb/cmd/fsrb-lsp@latest`, or set %s)", tostring((M.server_cmd() or {})[1]), how)
end

-- One client per root, on every version: 0.10's default test compares the
-- root with the workspace folders' names (ours is the folder's base name)
-- and would start a client per patch. A client shutting down is not reused.
local function reuse(client, want)
  if client.name ~= want.name or client.config.root_dir ~= want.root_dir then
    return false
  end
  return not M.stopped(client)
end

--- The server command in force: vim.lsp.config's when vim.lsp.enable('fsrb')
--- starts the client, else the plugin's `cmd`.
function M.server_cmd()
  if M.managed_by_enable() then
    local ok, cfg = pcall(function()
      return vim.lsp.config[config.options.name]
    end)
    if ok and type(cfg) == 'table' and cfg.cmd ~= nil then
      return cfg.cmd
    end
  end
  return config.options.cmd
end

-- The resolved vim.lsp.config of the client, ready for vim.lsp.start on
-- bufnr (its root_dir function called).
local function enabled_config(bufnr)
  local cfg = vim.deepcopy(vim.lsp.config[config.options.name])
  if type(cfg.root_dir) == 'function' then
    local root
    cfg.root_dir(bufnr, function(dir)
      root = dir
    end)
    cfg.root_dir = root
  end
  return cfg
end

--- The client config lsp/fsrb.lua gives vim.lsp.config (Neovim 0.11+): the
--- plugin's options (setup(), vim.g.fsrb) and handlers, the root as the
--- plugin finds it. vim.lsp.config('fsrb', {...}) can override any field.
function M.lsp_config()
  local cfg = config.options
  return {
    cmd = cfg.cmd,
    -- No `filetypes`: vim.lsp.enable detaches a client from every buffer
    -- whose filetype its config does not list, on each FileType event, and
    -- so would undo the attaching of the files patches edit (and Neovim
    -- 0.12, attaching such a buffer again, no longer follows its changes).
    -- root_dir answers for patch buffers only: nothing starts elsewhere.
    root_dir = function(bufnr, on_dir)
      if config.served(bufnr) then
        on_dir(find_root(bufnr))
      end
    end,
    reuse_client = reuse,
    init_options = server_settings(),
    settings = { fsrb = server_settings() },
    handlers = handlers(),
    capabilities = capabilities(),
    get_language_id = chat.language_id,
    -- The plugin's part of attaching (lenses, the files patches edit) is
    -- done by its LspAttach autocommand, so that an on_attach of the user's
    -- (vim.lsp.config('fsrb', { on_attach = ... })) takes nothing away.
    on_attach = cfg.on_attach,
    on_exit = on_exit,
  }
end

--- Starts or reuses the client for bufnr; returns its id.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.bo[bufnr].buftype ~= '' then
    -- A chat answer or a pasted patch: served, never written.
    if not chat.is_scratch(bufnr) or not chat.ready(bufnr) then
      return nil
    end
  end
  if not M.executable() then
    if not M.warned then
      M.warned = true
      notify(M.not_executable() .. '; :checkhealth fsrb', vim.log.levels.ERROR)
    end
    return nil
  end
  if M.managed_by_enable() then
    return vim.lsp.start(enabled_config(bufnr), { bufnr = bufnr, reuse_client = reuse })
  end
  local root = find_root(bufnr)
  if has_start then
    local started = vim.lsp.start(client_config(root), { bufnr = bufnr, reuse_client = reuse })
    require('fsrb.ondisk').sync_targets()
    return started
  end
  local id = by_root[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or M.stopped(client) then
    id = vim.lsp.start_client(client_config(root))
    if not id then
      notify('could not start ' .. table.concat(config.options.cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
    by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  require('fsrb.ondisk').sync_targets()
  return id
end

--- The FileType autocommand of a served filetype: starts or reuses the
--- client for bufnr, or leaves that to vim.lsp.enable('fsrb').
function M.on_filetype(bufnr)
  -- A client may be attached already: a patch opened while the client
  -- runs is loaded, and attached as a file inside its root, before its
  -- filetype is known, so that no LspAttach sees it as a patch.
  local early = M.clients(bufnr)[1]
  if early then
    -- (vim.lsp.enable ran the user's on_attach of vim.lsp.config then.)
    if vim.b[bufnr].fsrb_served ~= early.id then
      M.on_attach(early, bufnr, not M.managed_by_enable() and config.options.on_attach or nil)
    end
    return
  end
  if M.managed_by_enable() and vim.bo[bufnr].buftype == '' then
    -- vim.lsp.enable's own FileType autocommand starts the client
    -- (for files only: the plugin attaches scratch buffers); only
    -- say when it cannot (Neovim itself writes that to its log only).
    if not M.executable() then
      M.attach(bufnr)
    end
    return
  end
  M.attach(bufnr)
end

--- Stops the fsrb clients and attaches the served buffers again.
function M.restart()
  local bufs, old = {}, {}
  for _, c in ipairs(M.clients()) do
    for b in pairs(c.attached_buffers or {}) do
      if vim.api.nvim_buf_is_valid(b) and config.served(b) then
        bufs[b] = true -- the files in its root follow (sync_targets)
      end
    end
    stop(c)
    table.insert(old, c)
  end
  by_root = {}
  -- Attach again once the old clients are gone: vim.lsp.start would reuse
  -- one that is still shutting down, and lose the buffers when it exits.
  -- A client still there after 2 s is stopped by force.
  local waited = 0
  local timer = uv.new_timer()
  timer:start(50, 50, vim.schedule_wrap(function()
    waited = waited + 50
    local alive = {}
    for _, c in ipairs(old) do
      if vim.lsp.get_client_by_id(c.id) then
        table.insert(alive, c)
      end
    end
    if #alive > 0 and waited == 2000 then
      for _, c in ipairs(alive) do
        stop(c, true)
      end
    end
    if #alive > 0 and waited < 5000 then
      return
    end
    timer:stop()
    timer:close()
    for b in pairs(bufs) do
      if vim.api.nvim_buf_is_valid(b) then
        M.attach(b)
      end
    end
  end))
end


return M
