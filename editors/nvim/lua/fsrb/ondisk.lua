-- The buffers of the files patches edit: in the server's view, and as the
-- disk has them.
--
-- Neovim sends a language server the text of the buffers its client is
-- attached to, and no others. So every loaded buffer of a file inside an
-- fsrb client's root is attached to that client (sync_buffer: on the
-- events setup() lists, when a client starts, after an edit loads files),
-- unless `sync_targets = false`: the server sees their unsaved text, their
-- edits and their saves. It publishes no diagnostics for them, and the
-- plugin shows none (lua/fsrb/client.lua).
--
-- Another program (the fsrb CLI, an agent, git checkout) may write a file
-- whose buffer the plugin attached to the fsrb client, often a hidden one
-- loaded by an edit. Neovim looks at the disk only on :checktime and a few
-- events, so such a buffer would go on holding the old text: the patch
-- would read as not applied and be applied again to it.
--
--   - The plugin watches the folder of each file it attached (one
--     fs_event per folder): when a file changes, its buffer is reloaded when
--     unmodified (Neovim's own :checktime, which 'autoread' lets reload
--     without asking), and the server is told (didChangeWatchedFiles,
--     which Neovim does not send on Linux), so that a modified buffer shows
--     its conflict at once. A folder removed and made again is watched
--     again at the next change reported or command run.
--   - Before every command (apply, revert, status, preview) the same check
--     runs on every attached buffer, so that a change the watcher has not
--     reported yet counts.
--
-- A buffer with unsaved changes is never reloaded: the server reports its
-- file's blocks as in conflict until it is saved or reloaded. With
-- 'noautoread' the buffer is left as it is too, and the server reads the
-- disk instead of it until the user reloads it.
local M = {}

local config = require('fsrb.config')
local client = require('fsrb.client')

local uv = vim.uv or vim.loop -- vim.loop is deprecated from 0.10 on

-- folder -> { handle = fs_event, ino, gone = its watch ended, names = { [file name] = true } }
M._dirs = {}
M._watched = {} -- buffer -> the full file name watched for it
M._pending = {} -- full file name -> true, changes not handled yet
M._scheduled = false

local rearm -- below

local function notify(c, method, params)
  if vim.fn.has('nvim-0.11') == 1 then
    return c:notify(method, params)
  end
  return c.notify(method, params)
end

local function full_name(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return nil
  end
  return vim.fn.fnamemodify(name, ':p')
end

-- The loaded buffer of a full file name, or nil.
local function buffer_of(fname)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and full_name(b) == fname then
      return b
    end
  end
end

--- Reloads bufnr when its file changed on disk, it has no unsaved
--- changes and 'autoread' is on for it: :checktime, which then reloads
--- without asking. Returns whether it looked.
function M.reload(bufnr)
  if not vim.api.nvim_buf_is_loaded(bufnr) or vim.bo[bufnr].modified or vim.bo[bufnr].buftype ~= '' then
    return false
  end
  local fname = full_name(bufnr)
  -- A deleted file: :checktime would only complain; the server reads the
  -- disk, which has no such file.
  if not fname or not uv.fs_stat(fname) then
    return false
  end
  local ok = pcall(vim.api.nvim_buf_call, bufnr, function()
    -- The effective value, the buffer's own if it has one.
    if vim.fn.eval('&autoread') == 1 then
      vim.cmd('silent! checktime ' .. bufnr)
    end
  end)
  return ok
end

local function changed(clients, fname)
  local event = { uri = vim.uri_from_fname(fname), type = uv.fs_stat(fname) and 2 or 3 } -- Changed, Deleted
  for _, c in ipairs(clients) do
    pcall(notify, c, 'workspace/didChangeWatchedFiles', { changes = { event } })
  end
end

-- Handles the changes the watchers reported: reload, then tell the server.
local function flush()
  M._scheduled = false
  rearm()
  local pending = M._pending
  M._pending = {}
  for fname in pairs(pending) do
    local b = buffer_of(fname)
    if b then
      M.sync_buffer(b) -- attached again if a reload detached it
      local clients = client.clients(b)
      if #clients > 0 then
        M.reload(b)
        changed(clients, fname)
      end
    end
  end
end

-- queue has the change of fname handled soon (in the main loop: the
-- watchers' callbacks may not call the API).
local function queue(fname)
  M._pending[fname] = true
  if not M._scheduled then
    M._scheduled = true
    vim.schedule(flush)
  end
end

local function on_event(dir, name)
  local w = M._dirs[dir]
  if not w then
    return
  end
  if not uv.fs_stat(dir) then
    w.gone = true -- the watch ends with its folder (rearm)
    return
  end
  if name and w.names[name] then
    queue(dir .. '/' .. name)
  end
end

local function close(handle)
  pcall(function()
    handle:stop()
    handle:close()
  end)
end

local function stop(dir)
  local w = M._dirs[dir]
  if w then
    M._dirs[dir] = nil
    if w.handle then
      close(w.handle)
    end
  end
end

-- Starts watching the folder of w (again): the watch of a folder ends
-- when the folder is removed (git checkout, the CLI removing a folder it
-- emptied), and one made again in its place is not followed. Returns
-- whether it watches.
local function arm(dir, w)
  local st = uv.fs_stat(dir)
  if not st then
    return false
  end
  if w.handle and not w.gone and w.ino == st.ino then
    return true
  end
  if w.handle then
    close(w.handle)
    w.handle = nil
  end
  local handle = uv.new_fs_event()
  if not handle then
    return false
  end
  -- A folder, not the file: a program that writes a new file and renames
  -- it over the old one (the fsrb CLI does) replaces what a watch on the
  -- file would follow.
  local ok = handle:start(dir, {}, function(err, changed_name)
    if not err then
      on_event(dir, changed_name)
    end
  end)
  if not ok then
    pcall(function()
      handle:close()
    end)
    return false
  end
  w.handle, w.ino, w.gone = handle, st.ino, false
  return true
end

-- rearm watches again the folders made again since, and counts their
-- files as changed: what happened in between went unseen.
function rearm()
  for dir, w in pairs(M._dirs) do
    local st = uv.fs_stat(dir)
    if st and (not w.handle or w.gone or w.ino ~= st.ino) and arm(dir, w) then
      for name in pairs(w.names) do
        queue(dir .. '/' .. name)
      end
    end
  end
end

--- Watches the file of bufnr (a buffer attached to an fsrb client), once.
function M.watch(bufnr)
  local fname = full_name(bufnr)
  if not fname then
    return
  end
  local dir, name = vim.fn.fnamemodify(fname, ':h'), vim.fn.fnamemodify(fname, ':t')
  local w = M._dirs[dir]
  if not w then
    w = { names = {} }
    if not arm(dir, w) then
      return
    end
    M._dirs[dir] = w
  end
  w.names[name] = true
  M._watched[bufnr] = fname
  if not M._group then
    M._group = vim.api.nvim_create_augroup('fsrb_ondisk', { clear = true })
    vim.api.nvim_create_autocmd({ 'BufDelete', 'BufWipeout', 'BufFilePre' }, {
      group = M._group,
      callback = function(args)
        M.unwatch(args.buf)
      end,
      desc = 'fsrb: stop watching the file of a buffer that goes',
    })
  end
end

--- Stops watching the file of bufnr; a folder's watcher goes with its last
--- file.
function M.unwatch(bufnr)
  local fname = M._watched[bufnr]
  if not fname then
    return
  end
  M._watched[bufnr] = nil
  local dir = vim.fn.fnamemodify(fname, ':h')
  local w = M._dirs[dir]
  if not w then
    return
  end
  w.names[vim.fn.fnamemodify(fname, ':t')] = nil
  if next(w.names) == nil then
    stop(dir)
  end
end

--- Reloads every unmodified buffer attached to client c whose file changed
--- on disk (patches aside): what a command must see first.
function M.refresh(c)
  rearm()
  for b in pairs(c.attached_buffers or {}) do
    if vim.api.nvim_buf_is_valid(b) and not config.served(b) then
      M.reload(b)
    end
  end
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
  for _, c in ipairs(client.clients(bufnr)) do
    has[c.id] = true
  end
  local attached = false
  for _, c in ipairs(client.clients()) do
    local root = c.config and c.config.root_dir
    if not client.stopped(c) and (inside(fname, root) or (real and inside(real, uv.fs_realpath(root or '') or root))) then
      if not has[c.id] then
        vim.lsp.buf_attach_client(bufnr, c.id)
      end
      attached = true
    end
  end
  if attached then
    M.watch(bufnr) -- its file changed by other programs
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

return M
