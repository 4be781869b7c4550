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
local M = {}

local config = require('fsrb.config')

-- The options in force and who set the plugin up live in
-- lua/fsrb/config.lua; they are read here as fields of this table.
local fields = {
  config = { config, 'options' },
  _setup_by = { config, 'setup_by' },
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

M._clients = {} -- root_dir -> client id (Neovim 0.7 path)

local uv = vim.uv or vim.loop -- vim.loop is deprecated from 0.10 on
local has_start = vim.lsp.start ~= nil -- Neovim 0.8+
local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

--- Whether vim.lsp.enable('fsrb') (Neovim 0.11+, lsp/fsrb.lua) starts the
--- client: the plugin then leaves starting it to Neovim.
function M.managed_by_enable()
  if not has('0.11') then
    return false
  end
  if vim.lsp.is_enabled then
    return vim.lsp.is_enabled(M.config.name)
  end
  -- 0.11 before vim.lsp.is_enabled
  return type(vim.lsp._enabled_configs) == 'table' and vim.lsp._enabled_configs[M.config.name] ~= nil
end

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

local filetypes = config.filetypes
local served = config.served
M.served = served

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
local function publish_diagnostics_handler(err, result, ctx, config)
  if result and result.uri and M.config.sync_targets then
    local b = buf_of_uri(result.uri)
    if b and vim.api.nvim_buf_is_loaded(b) and not served(b) then
      result = { uri = result.uri, version = result.version, diagnostics = {} }
    end
  end
  return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
end

-- Code lenses of a served buffer, fetched again (0.12: enabled for that
-- buffer only; the server's workspace/codeLens/refresh keeps them fresh).
local function refresh_lenses(bufnr)
  if has('0.12') then
    pcall(vim.lsp.codelens.enable, true, { bufnr = bufnr })
  elseif has('0.10') then
    pcall(vim.lsp.codelens.refresh, { bufnr = bufnr })
  elseif bufnr == vim.api.nvim_get_current_buf() then
    pcall(vim.lsp.codelens.refresh) -- the current buffer
  end
end
M.refresh_lenses = refresh_lenses

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

-- Neovim (0.10-0.12) can leave an inlay hint drawn on a line whose hint
-- went away while the patch's text stayed the same (a block applied: the
-- server sends none for it): it redraws a line only when its cache, keyed
-- by the buffer's version, says so, and a redraw between a refresh and
-- its answer marks the line drawn with the old hint. When an answer has
-- hints on fewer lines than the one before, the plugin enables the
-- buffer's hints again, which starts that cache afresh and asks once more
-- (the same answer then, so it stops there).
local hint_lines = {} -- bufnr -> the lines of the last answer, as "1,4,9"
local function inlay_hint_handler(err, result, ctx, config)
  local r = vim.lsp.handlers['textDocument/inlayHint'](err, result, ctx, config)
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
  }, M.config.handlers or {})
end

-- Neovim applies a code action's edit with vim.lsp.util.apply_workspace_edit,
-- the function of every server, and has no hook for one client. So the
-- client declares experimental.fsrb.editsByCommand: the server's Apply and
-- Revert code actions then carry their command and no edit, and the edit
-- comes back as workspace/applyEdit, to apply_edit_handler. The defaults are
-- merged in: a table given to the client replaces them before 0.12.
local function capabilities()
  return vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(), M.config.capabilities or {}, {
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
  local want = M.config.virtual_text
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
  if not served(bufnr) then
    return
  end
  vim.b[bufnr].fsrb_served = client.id -- done once per client and patch buffer
  if M.config.codelens then
    refresh_lenses(bufnr)
  end
  narrow_virtual_text(client)
  local caps = client.server_capabilities or {}
  local hints = M.config.inlay_hints
  if hints == nil then
    hints = has('0.12')
  end
  if hints and caps.inlayHintProvider and has('0.10') then
    pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr })
  end
  if user_on_attach then
    user_on_attach(client, bufnr)
  end
  vim.schedule(M.sync_targets)
end

local function client_config(root)
  local cfg = M.config
  return {
    name = cfg.name,
    cmd = cfg.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ':t') } },
    init_options = server_settings(),
    settings = { fsrb = server_settings() },
    handlers = handlers(),
    capabilities = capabilities(),
    get_language_id = require('fsrb.chat').language_id,
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
local function reuse(client, config)
  if client.name ~= config.name or client.config.root_dir ~= config.root_dir then
    return false
  end
  if has('0.11') then
    return not client:is_stopped()
  end
  return not client.is_stopped()
end
M._reuse = reuse

local function stopped(client)
  if has('0.11') then
    return client:is_stopped()
  end
  return client.is_stopped()
end

--- The server command in force: vim.lsp.config's when vim.lsp.enable('fsrb')
--- starts the client, else the plugin's `cmd`.
function M.server_cmd()
  if M.managed_by_enable() then
    local ok, cfg = pcall(function()
      return vim.lsp.config[M.config.name]
    end)
    if ok and type(cfg) == 'table' and cfg.cmd ~= nil then
      return cfg.cmd
    end
  end
  return M.config.cmd
end

-- The resolved vim.lsp.config of the client, ready for vim.lsp.start on
-- bufnr (its root_dir function called).
local function enabled_config(bufnr)
  local cfg = vim.deepcopy(vim.lsp.config[M.config.name])
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
  local cfg = M.config
  return {
    cmd = cfg.cmd,
    -- No `filetypes`: vim.lsp.enable detaches a client from every buffer
    -- whose filetype its config does not list, on each FileType event, and
    -- so would undo the attaching of the files patches edit (and Neovim
    -- 0.12, attaching such a buffer again, no longer follows its changes).
    -- root_dir answers for patch buffers only: nothing starts elsewhere.
    root_dir = function(bufnr, on_dir)
      if served(bufnr) then
        on_dir(find_root(bufnr))
      end
    end,
    reuse_client = function(client, config)
      return M._reuse(client, config)
    end,
    init_options = server_settings(),
    settings = { fsrb = server_settings() },
    handlers = handlers(),
    capabilities = capabilities(),
    get_language_id = require('fsrb.chat').language_id,
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
    local chat = require('fsrb.chat')
    if not chat.is_scratch(bufnr) or not chat.ready(bufnr) then
      return nil
    end
  end
  if not M.executable() then
    if not M._warned then
      M._warned = true
      notify(M.not_executable() .. '; :checkhealth fsrb', vim.log.levels.ERROR)
    end
    return nil
  end
  if M.managed_by_enable() then
    return vim.lsp.start(enabled_config(bufnr), { bufnr = bufnr, reuse_client = M._reuse })
  end
  local root = find_root(bufnr)
  if has_start then
    local started = vim.lsp.start(client_config(root), { bufnr = bufnr, reuse_client = reuse })
    M.sync_targets()
    return started
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
  M.sync_targets()
  return id
end

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
  if not M.config.sync_targets or not vim.api.nvim_buf_is_valid(bufnr) or not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  if vim.bo[bufnr].buftype ~= '' or served(bufnr) then
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
    if not stopped(c) and (inside(fname, root) or (real and inside(real, uv.fs_realpath(root or '') or root))) then
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
  if not M.config.sync_targets then
    return
  end
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      M.sync_buffer(b)
    end
  end
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

-- quiet: on_done reports an error itself.
local function execute(bufnr, command, arguments, on_done, quiet)
  local client = client_for(bufnr)
  if not client then
    return false
  end
  -- The files as the disk has them now (lua/fsrb/ondisk.lua).
  require('fsrb.ondisk').refresh(client)
  -- No bufnr: the client then sends the changes of every buffer it still
  -- holds back (debounced didChange), not only the patch's. The commands
  -- work on the files the patch edits: one typed into just before must
  -- count (:Fsrb apply right after an edit, the preview's check).
  request(client, 'workspace/executeCommand', { command = command, arguments = arguments }, function(err, result)
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
  local client = M.clients(bufnr)[1]
  if client then
    local res = request_sync(client, 'textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, 3000, bufnr)
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
      if M.config.codelens then
        refresh_lenses(bufnr)
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

local function stop(client, force)
  if has('0.11') then
    client:stop(force)
  elseif client.stop then
    client.stop(force)
  else
    vim.lsp.stop_client(client.id, force)
  end
end

local function log_path()
  if vim.lsp.log and vim.lsp.log.get_filename then -- 0.9+
    return vim.lsp.log.get_filename()
  end
  return vim.lsp.get_log_path()
end
M.log_path = log_path

--- Stops the fsrb clients and attaches the served buffers again.
function M.restart()
  local bufs, old = {}, {}
  for _, c in ipairs(M.clients()) do
    for b in pairs(c.attached_buffers or {}) do
      if vim.api.nvim_buf_is_valid(b) and served(b) then
        bufs[b] = true -- the files in its root follow (sync_targets)
      end
    end
    stop(c)
    table.insert(old, c)
  end
  M._clients = {}
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

--- Configures the plugin: optional (see the top of this file). opts override
--- vim.g.fsrb, which overrides the defaults. Calling it again reconfigures.
function M.setup(opts)
  M._setup(opts, 'setup()')
end

-- by: who set the plugin up ('setup()', 'vim.g.fsrb', "vim.lsp.enable('fsrb')").
function M._setup(opts, by)
  config.set(opts, by)
  M._warned = false
  require('fsrb.command').create()
  local group = vim.api.nvim_create_augroup('fsrb', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = filetypes(),
    callback = function(args)
      -- A client may be attached already: a patch opened while the client
      -- runs is loaded, and attached as a file inside its root, before its
      -- filetype is known, so that no LspAttach sees it as a patch.
      local early = M.clients(args.buf)[1]
      if early then
        -- (vim.lsp.enable ran the user's on_attach of vim.lsp.config then.)
        if vim.b[args.buf].fsrb_served ~= early.id then
          M.on_attach(early, args.buf, not M.managed_by_enable() and M.config.on_attach or nil)
        end
        return
      end
      if M.managed_by_enable() and vim.bo[args.buf].buftype == '' then
        -- vim.lsp.enable's own FileType autocommand starts the client
        -- (for files only: the plugin attaches scratch buffers); only
        -- say when it cannot (Neovim itself writes that to its log only).
        if not M.executable() then
          M.attach(args.buf)
        end
        return
      end
      M.attach(args.buf)
    end,
    desc = 'fsrb: start or reuse the language server',
  })
  if M.config.codelens and not has('0.12') then
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
        if shown and served(b) and #M.clients(b) > 0 then
          refresh_lenses(b)
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
        local client = vim.lsp.get_client_by_id(args.data and args.data.client_id or -1)
        if client and client.name == M.config.name and M.managed_by_enable() then
          M.on_attach(client, args.buf)
        end
      end,
      desc = 'fsrb: code lenses and the files patches edit, for vim.lsp.enable',
    })
  end
  if M.config.sync_targets then
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
  local fts = filetypes()
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(fts, vim.bo[b].filetype) then
      if vim.bo[b].filetype == 'fsrb' and vim.b[b].current_syntax == nil then
        -- The plugin's syntax file was not on 'runtimepath' yet.
        vim.api.nvim_buf_call(b, function()
          vim.cmd('setlocal syntax=fsrb')
        end)
      end
      if not M.managed_by_enable() or vim.bo[b].buftype ~= '' then
        M.attach(b)
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
