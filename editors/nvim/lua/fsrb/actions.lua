-- The commands the server runs for a patch (workspace/executeCommand):
-- apply and revert, every block or one, skip and include a block, its
-- status, its preview. The edits they make come back as
-- workspace/applyEdit (lua/fsrb/edit.lua); :Fsrb (lua/fsrb/command.lua)
-- and require('fsrb') call them.
local M = {}

local config = require('fsrb.config')
local client = require('fsrb.client')
local ondisk = require('fsrb.ondisk')

--- The last command the server answered: { command, arguments, err,
--- result } (:help fsrb-api, `User FsrbCommandDone`).
M.last_command = nil

local function notify(msg, level)
  vim.notify('fsrb: ' .. msg, level or vim.log.levels.INFO)
end

-- quiet: on_done reports an error itself.
local function execute(bufnr, command, arguments, on_done, quiet)
  local c = client.client_for(bufnr)
  if not c then
    return false
  end
  -- The files as the disk has them now (lua/fsrb/ondisk.lua).
  ondisk.refresh(c)
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

-- The number of the block at (0-based) line, or nil and why not. The
-- server says it: each block is a document symbol whose range is the whole
-- block, header and all, and the code lens on the symbol's selection line
-- (its marker or fence) carries the block's number. Never a count of
-- markers: a chat answer's code blocks have none, and a guess would run
-- the command on another block.
local function block_at(bufnr, line)
  local c = client.clients(bufnr)[1]
  if not c then
    return nil, 'no fsrb server is attached to this buffer'
  end
  local doc = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  local function ask(method)
    local res, err = client.request_sync(c, method, doc, 3000, bufnr)
    if not res or res.err or type(res.result) ~= 'table' then
      return nil, (res and res.err and res.err.message) or err or 'no answer'
    end
    return res.result
  end
  local lenses, why = ask('textDocument/codeLens')
  local symbols, why2 = lenses and ask('textDocument/documentSymbol')
  if not lenses or not symbols then
    return nil, 'the server did not say which block is under the cursor (' .. tostring(why or why2) .. '); give the block number'
  end
  local number_on = {}
  for _, lens in ipairs(lenses) do
    local n = lens.command and lens.command.arguments and tonumber(lens.command.arguments[2])
    if n then
      number_on[lens.range.start.line] = n
    end
  end
  for _, file in ipairs(symbols) do
    for _, block in ipairs(file.children or {}) do
      local first, last = block.range.start.line, block.range['end'].line
      if block.range['end'].character == 0 and last > first then
        last = last - 1 -- the range ends at the start of the next line
      end
      local n = number_on[block.selectionRange.start.line]
      if n and first <= line and line <= last then
        return n
      end
    end
  end
  return nil, 'no block under the cursor; move it onto one or give the block number'
end

-- The block n, or the one under the cursor; nil after saying why none.
local function block_or_cursor(bufnr, n)
  if n then
    return n
  end
  local at, why = block_at(bufnr, vim.api.nvim_win_get_cursor(0)[1] - 1)
  if not at then
    notify(why, vim.log.levels.WARN)
  end
  return at
end

--- Applies block n (default: the block under the cursor).
function M.apply_block(bufnr, n, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  n = block_or_cursor(bufnr, n)
  if not n then
    return false
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
  n = block_or_cursor(bufnr, n)
  if not n then
    return false
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
  n = block_or_cursor(bufnr, n)
  if not n then
    return false
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
  if #parts == 0 then
    -- An answer with no edit in it (state `empty`): the server's sentence
    -- says so; an older server's "problems: 0 of 0 blocks" says less.
    notify(result.state == 'empty' and summary_of(result) or summary_of(result) .. '; no blocks')
    return
  end
  notify(string.format('%s; %s', summary_of(result), table.concat(parts, ', ')))
end

return M
