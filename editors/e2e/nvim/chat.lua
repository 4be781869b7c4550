-- Chat answers and pasted patches (lua/fsrb/chat.lua), run by
-- editors/e2e/nvim.sh after newcomer.lua, in the same init.lua (FSRB_MODE),
-- in a workspace of its own (the working directory) holding calc.py and
-- docs/notes.md (FSRB_CHAT_BEFORE: a folder with their text before,
-- FSRB_CHAT_AFTER: after).
--
-- The chat plugins cannot be installed here: each is played by a scratch
-- buffer made and filled the way its source does it:
--   codecompanion  nvim_create_buf(listed, true), named "[CodeCompanion] N",
--                  filetype set when shown; the answer appended at the last
--                  line and column with nvim_buf_set_text, chunk by chunk,
--                  modifiable off between writes; then renamed to the
--                  chat's title;
--   avante         a nofile, bufhidden=wipe, non-modifiable buffer (the
--                  cursor in another window), filetype
--                  "Avante" set first, named "AVANTE_RESULT" when shown; the
--                  whole buffer rewritten at every chunk;
--   copilot-chat   nvim_create_buf(false, true), filetype "copilot-chat"
--                  set before the name "copilot-chat"; chunks appended with
--                  nvim_buf_set_text.
-- For each: the fsrb client attaches; no error diagnostic ever shows while
-- the answer arrives, and a block cut short reads as information; once it
-- is complete, both blocks' lenses (for avante, whose window is not the
-- current one, refreshed by the plugin), a hover, "Apply all blocks"
-- offered once, the preview's two files; :Fsrb apply (for avante, run
-- from another window) + :wall write both files byte for byte; the chat
-- buffer stays nofile and nothing is written for it.
-- A chat buffer named like a file of the workspace is not served.
-- Then :Fsrb paste a with a patch in register a: served, :Fsrb apply +
-- :wall write the files, the paste buffer writes nothing; and :Fsrb paste
-- with no clipboard falls back to the unnamed register, saying so.
-- Exit: 0 passed, 1 a check failed, 2 a Lua error.
local lib = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'check-lib.lua')
local run = lib.new('chat')
local log, check = run.log, run.check
local has, read, lenses, titles = lib.has, lib.read, lib.lenses, lib.titles
local refresh, append, chunks, wipe = lib.refresh, lib.append, lib.chunks, lib.wipe

local ws = vim.fn.getcwd()
local before_dir, after_dir = os.getenv('FSRB_CHAT_BEFORE'), os.getenv('FSRB_CHAT_AFTER')
local files = { 'calc.py', 'docs/notes.md' }

-- The workspace back to its "before" state, no target buffer left.
local function reset()
  lib.reset(ws, files, before_dir)
end

local function errors(buf)
  return lib.diagnostics(buf, vim.diagnostic.severity.ERROR)
end

-- Every file under the workspace, sorted, as "path" lines.
local function tree()
  local out = {}
  for _, p in ipairs(vim.fn.globpath(ws, '**', false, true)) do
    if vim.fn.isdirectory(p) == 0 then
      table.insert(out, p:sub(#ws + 2))
    end
  end
  table.sort(out)
  return table.concat(out, ' ')
end

local answer = read(os.getenv('FSRB_CHAT_ANSWER'))

local styles = {}

styles.codecompanion = lib.codecompanion('Charge by price, and say so in the notes.')
styles.codecompanion.finish = function(b)
  -- codecompanion's Chat:set_title
  vim.api.nvim_buf_set_name(b, 'Charge by price')
end

styles.avante = {
  make = function()
    vim.cmd('botright vnew')
    local b = vim.api.nvim_get_current_buf()
    vim.bo[b].buftype = 'nofile'
    vim.bo[b].bufhidden = 'wipe'
    vim.bo[b].swapfile = false
    vim.bo[b].modifiable = false
    vim.bo[b].filetype = 'Avante'
    vim.api.nvim_buf_set_name(b, 'AVANTE_RESULT')
    vim.cmd('wincmd p') -- the cursor stays where the question was typed
    return b
  end,
  unfocused = true,
  write = function(b, _, sofar)
    vim.bo[b].modifiable = true
    vim.api.nvim_buf_set_lines(b, 0, -1, false, vim.split('- Datetime: today\n- Model: claude\n\n> Charge by price\n\n' .. sofar, '\n', { plain = true }))
    vim.bo[b].modifiable = false
  end,
}

styles['copilot-chat'] = {
  make = function()
    local b = vim.api.nvim_create_buf(false, true)
    vim.bo[b].filetype = 'copilot-chat'
    vim.bo[b].modifiable = false
    vim.api.nvim_buf_set_name(b, 'copilot-chat')
    vim.cmd('botright split')
    vim.api.nvim_win_set_buf(0, b)
    vim.bo[b].modifiable = true
    vim.api.nvim_buf_set_lines(b, 0, -1, false, { '# User', 'Charge by price', '', '# Copilot', '' })
    vim.bo[b].modifiable = false
    return b
  end,
  write = function(b, chunk)
    local m = vim.bo[b].modifiable
    vim.bo[b].modifiable = true
    append(b, chunk)
    vim.bo[b].modifiable = m
  end,
}

-- Applies the patch in buf with :Fsrb apply, writes with :wall, checks the
-- files byte for byte and that nothing else was written.
-- elsewhere: from another window, which shows no patch (avante's input).
local function apply_and_check(label, buf, elsewhere)
  local fsrb = require('fsrb')
  local done = false
  local au = vim.api.nvim_create_autocmd('User', { pattern = 'FsrbCommandDone', once = true, callback = function() done = true end })
  if elsewhere then
    vim.cmd('wincmd p')
    if vim.api.nvim_get_current_buf() == buf then
      vim.cmd('wincmd p')
    end
    vim.cmd('enew')
    label = label .. ' (:Fsrb apply from another window)'
  else
    vim.api.nvim_set_current_buf(buf)
  end
  vim.cmd('Fsrb apply')
  check(vim.wait(10000, function() return done end, 20), label .. ': :Fsrb apply answered')
  pcall(vim.api.nvim_del_autocmd, au)
  local res = fsrb.last_command and fsrb.last_command.result
  check(type(res) == 'table' and res.applied == true, label .. ': the client applied the edit', vim.inspect(fsrb.last_command))
  vim.cmd('silent! wall')
  for _, f in ipairs(files) do
    local got, want = read(ws .. '/' .. f), read(after_dir .. '/' .. f)
    check(got == want, label .. ': ' .. f .. ' written byte for byte', string.format('%q, want %q', tostring(got), tostring(want)))
  end
  check(tree() == 'calc.py docs/notes.md', label .. ': nothing else on disk (the chat buffer never written)', tree())
  check(vim.bo[buf].buftype == 'nofile', label .. ': the buffer is still nofile')
end

local function chat(style)
  reset()
  local fsrb = require('fsrb')
  local s = styles[style]
  local label = style
  local b = s.make()
  -- Every error diagnostic the buffer ever gets, from now on.
  local seen_errors, infos = {}, {}
  local au = vim.api.nvim_create_autocmd('DiagnosticChanged', {
    buffer = b,
    callback = function()
      for _, e in ipairs(errors(b)) do
        table.insert(seen_errors, e)
      end
      for _, d in ipairs(vim.diagnostic.get(b, { severity = vim.diagnostic.severity.INFO })) do
        table.insert(infos, d.message)
      end
    end,
  })
  local sofar = ''
  local parts = chunks(answer, 37)
  local mid = math.floor(#parts / 2)
  for i, c in ipairs(parts) do
    sofar = sofar .. c
    s.write(b, c, sofar)
    if i == 1 then
      check(vim.wait(10000, function() return #fsrb.clients(b) == 1 end, 20), label .. ': the fsrb client attached')
    end
    if i == mid then
      -- Mid-stream: the block being written is arriving, not an error.
      check(vim.wait(5000, function() return #infos > 0 end, 20), label .. ': a block cut short is information while it arrives', table.concat(infos, ' / '))
      log('mid-stream information: %s', infos[#infos] or '')
    end
    vim.wait(15) -- the model's pace: the server sees many versions
  end
  if s.finish then
    s.finish(b)
  end
  check(vim.wait(10000, function() return #fsrb.clients(b) == 1 end, 20), label .. ': the client attached once the answer is complete', vim.api.nvim_buf_get_name(b))
  if s.unfocused and not has('0.10') then
    -- 0.7 refreshes the lenses of the current buffer only.
    vim.api.nvim_set_current_win(vim.fn.bufwinid(b))
  end
  check(vim.wait(10000, function()
    if not s.unfocused then
      refresh(b)
    end
    local t = titles(b)
    return t:find('#1', 1, true) and t:find('#2', 1, true) and t:find('Apply all', 1, true)
  end, 100), label .. ': lenses of both blocks and Apply all' .. (s.unfocused and ', the window not current' or ''), titles(b))
  log('lenses: %s', titles(b))
  pcall(vim.api.nvim_del_autocmd, au)
  check(#seen_errors == 0 and #errors(b) == 0, label .. ': no error diagnostic while the answer arrived', table.concat(seen_errors, ' / '))

  -- Hover on the first SEARCH marker, and the code actions.
  local client = fsrb.clients(b)[1]
  local uri = vim.uri_from_bufnr(b)
  local search
  for i, l in ipairs(vim.api.nvim_buf_get_lines(b, 0, -1, false)) do
    if l:match('^<<<<<<< SEARCH') then
      search = i - 1
      break
    end
  end
  local hov = vim.lsp.buf_request_sync(b, 'textDocument/hover', { textDocument = { uri = uri }, position = { line = search, character = 2 } }, 5000)
  local htext = ''
  for _, r in pairs(hov or {}) do
    if r.result and r.result.contents then
      htext = htext .. vim.inspect(r.result.contents)
    end
  end
  check(htext:find('calc.py', 1, true) ~= nil, label .. ': hover over a block says where it applies', htext)
  local all = lib.apply_all_offered(b)
  check(all == 1 and client ~= nil, label .. ': "Apply all blocks" offered once', tostring(all))
  local pv
  fsrb.preview(b, function(err, result) pv = { err = err, result = result } end)
  check(vim.wait(5000, function() return pv ~= nil end, 20) and not pv.err and type(pv.result) == 'table' and #(pv.result.files or {}) == 2,
    label .. ': the preview shows both files', vim.inspect(pv))
  apply_and_check(label, b, s.unfocused)
  wipe(b)
end

local function paste()
  reset()
  local fsrb = require('fsrb')
  vim.fn.setreg('a', answer)
  vim.cmd('Fsrb paste a')
  local b = vim.api.nvim_get_current_buf()
  check(vim.bo[b].buftype == 'nofile' and vim.bo[b].filetype == 'fsrb', ':Fsrb paste a: a nofile fsrb buffer', vim.bo[b].buftype .. ' ' .. vim.bo[b].filetype)
  check(table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n') .. '\n' == answer, ':Fsrb paste a: the register\'s text')
  check(vim.wait(10000, function() return #fsrb.clients(b) == 1 end, 20), ':Fsrb paste a: the fsrb client attached')
  check(vim.wait(10000, function()
    refresh(b)
    return titles(b):find('#2', 1, true) ~= nil
  end, 100), ':Fsrb paste a: its lenses', titles(b))
  check(#errors(b) == 0, ':Fsrb paste a: no error', table.concat(errors(b), ' / '))
  apply_and_check(':Fsrb paste a', b)
  wipe(b)

  -- A patch that does not apply: its error shows.
  reset()
  vim.fn.setreg('b', (answer:gsub('counts the items', 'counts the things')))
  vim.cmd('Fsrb paste b')
  b = vim.api.nvim_get_current_buf()
  check(vim.wait(10000, function() return #errors(b) == 1 end, 20), ':Fsrb paste b: the error of a block not found', table.concat(errors(b), ' / '))
  log('its diagnostic: %s', errors(b)[1] or '')
  wipe(b)

  -- No clipboard here: the unnamed register, with a message.
  reset()
  local notes = {}
  local notify = vim.notify
  vim.notify = function(msg, level) table.insert(notes, msg) end
  vim.fn.setreg('"', answer)
  vim.cmd('Fsrb paste')
  vim.notify = notify
  b = vim.api.nvim_get_current_buf()
  check(vim.b[b].fsrb_paste == true and table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n') .. '\n' == answer,
    ':Fsrb paste without a clipboard: the unnamed register')
  check((notes[1] or ''):find('unnamed register', 1, true) ~= nil, ':Fsrb paste without a clipboard: says so', notes[1])
  wipe(b)
end

-- A chat named like a file of the workspace (codecompanion names a chat
-- after its title): not served, or the server would take the answer for
-- that file.
local function named_like_a_file()
  reset()
  local fsrb = require('fsrb')
  local notes = {}
  local notify = vim.notify
  vim.notify = function(msg) table.insert(notes, msg) end
  local b = vim.api.nvim_create_buf(true, true)
  vim.api.nvim_buf_set_name(b, 'calc.py')
  vim.api.nvim_buf_set_lines(b, 0, -1, false, vim.split(answer, '\n', { plain = true }))
  vim.bo[b].filetype = 'codecompanion'
  vim.notify = notify
  vim.wait(300)
  check(#fsrb.clients(b) == 0, 'a chat buffer named calc.py is not served')
  check((notes[1] or ''):find("named like the file 'calc.py'", 1, true) ~= nil, 'a chat buffer named calc.py: a warning says why', notes[1])
  wipe(b)
  check(read(ws .. '/calc.py') == read(before_dir .. '/calc.py'), 'a chat buffer named calc.py: calc.py untouched')
end

local function main()
  local v = vim.version()
  log('Neovim %d.%d.%d, %s', v.major, v.minor, v.patch, ws)
  local only = os.getenv('FSRB_CHAT_STYLES')
  if only == '' then
    only = nil
  end
  for _, style in ipairs({ 'codecompanion', 'avante', 'copilot-chat' }) do
    if not only or only:find(style, 1, true) then
      chat(style)
    end
  end
  if not only or only:find('paste', 1, true) then
    paste()
  end
  if not only then
    named_like_a_file()
  end
end

run.finish(main)
