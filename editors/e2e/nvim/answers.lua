-- Answers as chat tools write them (core's chat snippets: a code block
-- that names its file, lazy with "...existing code..." markers, or
-- CopilotChat's line ranges), run by editors/e2e/nvim.sh after chat.lua,
-- in the same init.lua (FSRB_MODE), in a workspace of its own (the working
-- directory) holding src/app.py and src/x.py. FSRB_ANSWERS is the fixture
-- folder: before/ and after/ (the files), lazy.md, ranges.md, prose.md.
--
-- codecompanion.nvim and CopilotChat.nvim need Neovim 0.10: there each
-- answer streams into a buffer made and filled as chat.lua's styles do
-- (the answer appended at the end, chunk by chunk). On 0.7 the same
-- answers stream into a Markdown buffer (`markdown = true`), as a user
-- keeps an answer in a .md file.
--   lazy    codecompanion's shape: ````python src/app.py with "#
--           ...existing code..." lines. No error diagnostic ever shows
--           while it arrives; then one "Apply all blocks", :Fsrb apply +
--           :wall write src/app.py byte for byte, and :Fsrb apply again
--           sends nothing and says the answer is applied already.
--   ranges  CopilotChat's: two ```python path=src/x.py start_line=A
--           end_line=B blocks, the first growing the file by a line:
--           :Fsrb apply + :wall write both, the second where the answer
--           meant it (not shifted by the first); then it stands applied
--           (:Fsrb apply sends nothing) and :Fsrb revert gives src/x.py
--           back.
--   paste   the lazy answer through :Fsrb paste (every version): applied
--           byte for byte, the paste buffer never written.
--   prose   an answer with no edit (a fence that names no file, a shell
--           block): no diagnostic, no lens; :Fsrb status and :Fsrb apply
--           say that the answer holds no edit, and nothing is sent.
-- Exit: 0 passed, 1 a check failed, 2 a Lua error.
local lib = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'check-lib.lua')
local run = lib.new('answers')
local log, check = run.log, run.check
local has, read, titles = lib.has, lib.read, lib.titles
local refresh, diagnostics, append, chunks, wipe = lib.refresh, lib.diagnostics, lib.append, lib.chunks, lib.wipe
local apply_all_offered = lib.apply_all_offered

local ws = vim.fn.getcwd()
local dir = os.getenv('FSRB_ANSWERS')
local files = { 'src/app.py', 'src/x.py' }
local chat = has('0.10') -- the chat plugins' own minimum

-- The workspace back to its "before" state, no target buffer left.
local function reset()
  lib.reset(ws, files, dir .. '/before')
end

-- The buffers answers arrive in: make() returns it, write(b, chunk)
-- appends a chunk the way its plugin does.
local styles = {}

styles.codecompanion = lib.codecompanion('Strip the name in greet, and add a farewell.')

styles['copilot-chat'] = {
  make = function()
    local b = vim.api.nvim_create_buf(false, true)
    vim.bo[b].filetype = 'copilot-chat'
    vim.api.nvim_buf_set_name(b, 'copilot-chat')
    vim.api.nvim_set_current_buf(b)
    vim.api.nvim_buf_set_lines(b, 0, -1, false, { '# User', 'Use math.pi', '', '# Copilot', '' })
    return b
  end,
  write = function(b, chunk)
    append(b, chunk)
  end,
}

-- A Markdown file of the workspace, not on disk yet: :edit NAME.
local function markdown(name)
  return {
    make = function()
      vim.cmd('edit ' .. name)
      local b = vim.api.nvim_get_current_buf()
      check(vim.bo[b].filetype == 'markdown', name .. ': a Markdown buffer', vim.bo[b].filetype)
      return b
    end,
    write = append,
  }
end

-- The messages the server shows through the fsrb client of buf
-- (window/showMessage), from now on: the client's own handler, wrapped.
local function messages(buf)
  local c = require('fsrb').clients(buf)[1]
  local seen = {}
  local method = 'window/showMessage'
  local prev = c.handlers[method]
  c.handlers[method] = function(err, result, ctx, cfg)
    table.insert(seen, result)
    return (prev or vim.lsp.handlers[method])(err, result, ctx, cfg)
  end
  return seen, function()
    c.handlers[method] = prev
  end
end

-- Runs :Fsrb CMD in buf and waits for the server's answer; returns the
-- plugin's record of it (require('fsrb').last_command).
local function fsrb_cmd(buf, cmd)
  local done = false
  local au = vim.api.nvim_create_autocmd('User', { pattern = 'FsrbCommandDone', once = true, callback = function() done = true end })
  vim.api.nvim_set_current_buf(buf)
  vim.cmd('Fsrb ' .. cmd)
  check(vim.wait(10000, function() return done end, 20), ':Fsrb ' .. cmd .. ' answered')
  pcall(vim.api.nvim_del_autocmd, au)
  return require('fsrb').last_command or {}
end

-- What vim.notify is given while f runs (:Fsrb status says its line so).
local function notified(f)
  local notes = {}
  local notify = vim.notify
  vim.notify = function(msg) table.insert(notes, msg) end
  local ok, err = pcall(f)
  vim.notify = notify
  assert(ok, err)
  return notes
end

-- Runs :Fsrb apply in buf where it should send nothing, and waits for the
-- server's message saying why; returns the command's record, the message
-- and its type (1 is an error).
local function apply_refused(buf, label, what)
  local said, restore = messages(buf)
  local res = fsrb_cmd(buf, 'apply')
  check(vim.wait(3000, function() return #said > 0 end, 20), label .. ': :Fsrb apply' .. what .. ' says why it sends nothing')
  restore()
  local msg = said[1] and said[1].message or ''
  log(':Fsrb apply%s: %s', what, msg)
  return res, msg, said[1] and said[1].type
end

-- The patch's state, from the server (fsrb.status).
local function state(buf)
  local st
  require('fsrb').status(buf, function(err, result) st = err and { state = 'error: ' .. vim.inspect(err) } or result end)
  vim.wait(5000, function() return st ~= nil end, 20)
  return st or { state = 'no answer' }
end

-- Streams text into a new buffer of style s and waits for the client to
-- attach; returns the buffer and the error diagnostics it ever showed.
local function stream(label, s, text)
  local fsrb = require('fsrb')
  local b = s.make()
  local seen, infos = {}, {}
  local au = vim.api.nvim_create_autocmd('DiagnosticChanged', {
    buffer = b,
    callback = function()
      for _, e in ipairs(diagnostics(b, vim.diagnostic.severity.ERROR)) do
        table.insert(seen, e)
      end
      for _, e in ipairs(diagnostics(b, vim.diagnostic.severity.INFO)) do
        infos[e] = true
      end
    end,
  })
  for i, c in ipairs(chunks(text, 29)) do
    s.write(b, c)
    if i == 1 then
      check(vim.wait(10000, function() return #fsrb.clients(b) == 1 end, 20), label .. ': the fsrb client attached')
    end
    vim.wait(15) -- the model's pace: the server sees many versions
  end
  for e in pairs(infos) do
    log('while it arrived: %s', e:gsub('\n.*', ''))
  end
  return b, seen, function()
    pcall(vim.api.nvim_del_autocmd, au)
  end
end

-- :Fsrb apply, :wall, and the files compared with after/ byte for byte.
local function apply_and_check(label, buf, want)
  local res = fsrb_cmd(buf, 'apply')
  check(type(res.result) == 'table' and res.result.applied == true, label .. ': the client applied the edit', vim.inspect(res))
  vim.cmd('silent! wall')
  for _, f in ipairs(want) do
    local got, exp = read(ws .. '/' .. f), read(dir .. '/after/' .. f)
    check(got == exp, label .. ': ' .. f .. ' written byte for byte', string.format('%q, want %q', tostring(got), tostring(exp)))
  end
end

local function lazy()
  reset()
  local label = 'lazy answer (' .. (chat and 'codecompanion' or 'Markdown') .. ')'
  local text = read(dir .. '/lazy.md')
  local b, seen, stop = stream(label, chat and styles.codecompanion or markdown('lazy.md'), text)
  check(vim.wait(10000, function()
    refresh(b)
    local t = titles(b)
    return t:find('#1', 1, true) ~= nil and t:find('Apply all', 1, true) ~= nil
  end, 100), label .. ': the lens of its block and Apply all', titles(b))
  log('lenses: %s', titles(b))
  stop()
  check(#seen == 0 and #diagnostics(b, vim.diagnostic.severity.ERROR) == 0, label .. ': no error diagnostic while it arrived', table.concat(seen, ' / '))
  check(apply_all_offered(b) == 1, label .. ': "Apply all blocks" offered once', tostring(apply_all_offered(b)))
  apply_and_check(label, b, { 'src/app.py' })
  check(read(ws .. '/src/x.py') == read(dir .. '/before/src/x.py'), label .. ': src/x.py untouched')

  -- Once more: the answer stands applied, and nothing is sent.
  check(vim.wait(5000, function() return state(b).state == 'applied' end, 100), label .. ': then its state is applied', vim.inspect(state(b)))
  local res, msg = apply_refused(b, label, ' again')
  check(res.result == nil and not res.err and msg:find('nothing to apply', 1, true) ~= nil and msg:find('applied already', 1, true) ~= nil,
    label .. ': :Fsrb apply again sends nothing: applied already', vim.inspect(res) .. ' ' .. msg)
  local modified = {}
  for _, x in ipairs(vim.api.nvim_list_bufs()) do
    if vim.bo[x].modified and vim.bo[x].buftype == '' and vim.api.nvim_buf_get_name(x):find('/src/', 1, true) then
      table.insert(modified, vim.api.nvim_buf_get_name(x))
    end
  end
  check(#modified == 0 and read(ws .. '/src/app.py') == read(dir .. '/after/src/app.py'), label .. ': no buffer changed, src/app.py as it was', table.concat(modified, ' '))
  wipe(b)
end

local function ranges()
  reset()
  local label = 'CopilotChat ranges (' .. (chat and 'copilot-chat' or 'Markdown') .. ')'
  local b, seen, stop = stream(label, chat and styles['copilot-chat'] or markdown('ranges.md'), read(dir .. '/ranges.md'))
  check(vim.wait(10000, function()
    refresh(b)
    local t = titles(b)
    return t:find('#1', 1, true) ~= nil and t:find('#2', 1, true) ~= nil and t:find('Apply all', 1, true) ~= nil
  end, 100), label .. ': lenses of both ranges and Apply all', titles(b))
  log('lenses: %s', titles(b))
  stop()
  check(#seen == 0, label .. ': no error diagnostic while it arrived', table.concat(seen, ' / '))
  apply_and_check(label, b, { 'src/x.py' })
  -- The ranges are of the file as the answer saw it: applied now, both.
  check(vim.wait(5000, function() return state(b).state == 'applied' end, 100), label .. ': then its state is applied', vim.inspect(state(b)))
  check(vim.wait(10000, function()
    refresh(b)
    return titles(b):find('Revert all', 1, true) ~= nil
  end, 100), label .. ': "Revert all blocks" instead of "Apply all"', titles(b))
  log('lenses: %s', titles(b))
  local res, msg = apply_refused(b, label, ' again')
  check(res.result == nil and msg:find('applied already', 1, true) ~= nil and read(ws .. '/src/x.py') == read(dir .. '/after/src/x.py'),
    label .. ': :Fsrb apply again sends nothing: applied already', msg)
  res = fsrb_cmd(b, 'revert')
  check(type(res.result) == 'table' and res.result.applied == true, label .. ': :Fsrb revert', vim.inspect(res))
  vim.cmd('silent! wall')
  check(read(ws .. '/src/x.py') == read(dir .. '/before/src/x.py'), label .. ': :Fsrb revert + :wall: src/x.py as before, byte for byte', read(ws .. '/src/x.py'))
  wipe(b)
end

local function prose()
  reset()
  local label = 'answer with no edit (' .. (chat and 'codecompanion' or 'Markdown') .. ')'
  local b, seen, stop = stream(label, chat and styles.codecompanion or markdown('prose.md'), read(dir .. '/prose.md'))
  local all = {}
  vim.api.nvim_create_autocmd('DiagnosticChanged', {
    buffer = b,
    callback = function()
      vim.list_extend(all, diagnostics(b))
    end,
  })
  check(vim.wait(5000, function() return state(b).state == 'empty' end, 100), label .. ': its state is empty', vim.inspect(state(b)))
  vim.wait(500) -- diagnostics and lenses, had there been any
  refresh(b)
  vim.wait(300)
  stop()
  check(#seen == 0 and #all == 0 and #diagnostics(b) == 0, label .. ': no diagnostic', table.concat(seen, ' / ') .. table.concat(all, ' / '))
  check(titles(b) == '', label .. ': no lens', titles(b))
  local notes = notified(function()
    fsrb_cmd(b, 'status')
  end)
  local line = table.concat(notes, ' / ')
  log(':Fsrb status: %s', line)
  check(line:find('holds no', 1, true) ~= nil and not line:find('0 of 0', 1, true) and not line:find('problem', 1, true),
    label .. ': :Fsrb status says the answer holds no edit', line)
  local res, msg, kind = apply_refused(b, label, '')
  check(res.result == nil and not res.err and msg:find('nothing to apply', 1, true) ~= nil and msg:find('holds no', 1, true) ~= nil
    and kind ~= 1, label .. ': :Fsrb apply: nothing to apply, the answer holds no edit (not an error)', msg)
  for _, f in ipairs(files) do
    check(read(ws .. '/' .. f) == read(dir .. '/before/' .. f), label .. ': ' .. f .. ' untouched')
  end
  wipe(b)
end

-- :Fsrb paste of the lazy answer (a chat in a browser, copied): served
-- as a patch, applied byte for byte, the paste buffer never written.
local function paste()
  reset()
  local label = ':Fsrb paste of the lazy answer'
  local fsrb = require('fsrb')
  vim.fn.setreg('a', read(dir .. '/lazy.md'))
  vim.cmd('Fsrb paste a')
  local b = vim.api.nvim_get_current_buf()
  check(vim.wait(10000, function() return #fsrb.clients(b) == 1 end, 20), label .. ': the fsrb client attached')
  check(vim.wait(10000, function()
    refresh(b)
    return titles(b):find('#1 applies', 1, true) ~= nil
  end, 100), label .. ': its lens', titles(b))
  check(#diagnostics(b, vim.diagnostic.severity.ERROR) == 0, label .. ': no error', table.concat(diagnostics(b, vim.diagnostic.severity.ERROR), ' / '))
  apply_and_check(label, b, { 'src/app.py' })
  check(vim.bo[b].buftype == 'nofile' and vim.fn.filereadable(vim.api.nvim_buf_get_name(b)) == 0, label .. ': the paste buffer never written')
  wipe(b)
end

local function main()
  local v = vim.version()
  log('Neovim %d.%d.%d, %s', v.major, v.minor, v.patch, ws)
  if not chat then
    -- Markdown answers are served when asked (README, "Options").
    local opts = vim.deepcopy(require('fsrb.config').options)
    opts.markdown = true
    require('fsrb').setup(opts)
  end
  local only = os.getenv('FSRB_ANSWER_CASES')
  for _, case in ipairs({ { 'lazy', lazy }, { 'ranges', ranges }, { 'prose', prose }, { 'paste', paste } }) do
    if not only or only == '' or only:find(case[1], 1, true) then
      case[2]()
    end
  end
end

run.finish(main)
