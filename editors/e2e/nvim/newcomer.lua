-- What a newcomer meets, set up as the README says: run by editors/e2e/nvim.sh
-- after runner.lua, in the same init.lua (FSRB_MODE), but with a patch
-- opened at start-up (`nvim first.fsrb`) and a second one opened with :edit
-- while the client runs. Each patch must get its lenses (and, where the
-- plugin shows them, its inlay hints); :help fsrb must open; a server that
-- is not there must be an ERROR in :checkhealth fsrb, with the words shown
-- when a patch opens; an Apply that creates a file, discarded with :qall!,
-- must leave nothing on disk.
-- Exit: 0 passed, 1 a check failed, 2 a Lua error.
local uv = vim.uv or vim.loop
local lib = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'check-lib.lua')
local run = lib.new('nvim')
local log, check = run.log, run.check
local has, lenses, titles = lib.has, lib.lenses, lib.titles

-- A patch buffer is served: a client, its lenses, and on 0.12 its inlay
-- hints turned on (0.10 draws lenses at the end of the line, where a hint
-- would repeat them: the plugin leaves hints off there).
local function served(buf, label)
  local fsrb = require('fsrb')
  check(vim.wait(10000, function() return #fsrb.clients(buf) == 1 end, 20), label .. ': an fsrb client attached')
  check(vim.wait(10000, function() return titles(buf):find('applies at a.txt:1', 1, true) ~= nil end, 20),
    label .. ': its lens "#1 applies at a.txt:1"', titles(buf))
  if has('0.12') then
    check(vim.lsp.codelens.is_enabled({ bufnr = buf }), label .. ': vim.lsp.codelens.is_enabled')
    check(vim.lsp.inlay_hint.is_enabled({ bufnr = buf }), label .. ': vim.lsp.inlay_hint.is_enabled')
  elseif has('0.10') then
    check(not vim.lsp.inlay_hint.is_enabled({ bufnr = buf }), label .. ': no inlay hints on 0.10 (the lens at the line end says where)')
  end
end

local function main()
  local mode = os.getenv('FSRB_MODE')
  log('Neovim 0.%d.%d, configured by %s, started with %s', vim.version().minor, vim.version().patch, tostring(mode), vim.api.nvim_buf_get_name(0))
  local first = vim.api.nvim_get_current_buf()
  check(vim.bo[first].filetype == 'fsrb', 'the patch given on the command line has filetype fsrb', vim.bo[first].filetype)
  served(first, 'first.fsrb (opened at start-up)')

  vim.cmd('edit second.fsrb')
  local second = vim.api.nvim_get_current_buf()
  served(second, 'second.fsrb (opened with :edit while the client runs)')
  check(#require('fsrb').clients() == 1, 'one client for both patches')

  -- The client's diagnostics show virtual text for warnings only, where
  -- virtual text is on (0.7 and 0.10 by default; 0.12 has it off, and the
  -- plugin turns nothing on).
  local client = require('fsrb').clients(second)[1]
  local global = vim.diagnostic.config().virtual_text
  local ns = vim.diagnostic.get_namespace(vim.lsp.diagnostic.get_namespace(client.id))
  local vt = (ns.opts or {}).virtual_text
  local W = vim.diagnostic.severity.WARN
  if global then
    check(type(vt) == 'table' and type(vt.severity) == 'table' and vt.severity.min == W and vt.severity.max == W,
      "the fsrb client's virtual text: warnings only", vim.inspect(vt))
  else
    check(vt == nil, "virtual text off: the plugin leaves the fsrb client's off too", vim.inspect(vt))
  end

  -- An Apply that creates a file, then discarded: the new file is a
  -- modified buffer, nothing on disk; nvim.sh checks after :qall! that
  -- CHANGES.md was never written.
  local f = io.open('third.fsrb', 'w')
  f:write('notes/CHANGES.md\n<<<<<<< SEARCH\n=======\n# Changes\n>>>>>>> REPLACE\n')
  f:close()
  vim.cmd('edit third.fsrb')
  local third = vim.api.nvim_get_current_buf()
  vim.wait(10000, function() return titles(third):find('creates notes/CHANGES.md', 1, true) ~= nil end, 20)
  local applied = 0
  vim.api.nvim_create_autocmd('User', { pattern = 'FsrbEditApplied', callback = function() applied = applied + 1 end })
  vim.cmd('Fsrb apply')
  vim.wait(10000, function() return applied > 0 end, 20)
  local nb = vim.fn.bufnr(vim.fn.getcwd() .. '/notes/CHANGES.md')
  check(applied == 1 and nb > 0 and vim.bo[nb].modified and table.concat(vim.api.nvim_buf_get_lines(nb, 0, -1, false), '\n') == '# Changes',
    ':Fsrb apply of a new file: a modified buffer holding its text', tostring(nb))
  check(not uv.fs_stat('notes/CHANGES.md') and not uv.fs_stat('notes'), ':Fsrb apply of a new file: nothing on disk before :w (neither the file nor its folder)')

  -- The same through the code action menu: the action runs its command,
  -- and the edit comes to the plugin's own handler as workspace/applyEdit
  -- (Neovim 0.7 would fail a CreateFile in a missing folder).
  f = io.open('fourth.fsrb', 'w')
  f:write('drafts/TODO.md\n<<<<<<< SEARCH\n=======\n# Todo\n>>>>>>> REPLACE\n')
  f:close()
  vim.cmd('edit fourth.fsrb')
  local fourth = vim.api.nvim_get_current_buf()
  vim.wait(10000, function() return titles(fourth):find('creates drafts/TODO.md', 1, true) ~= nil end, 20)
  local select = vim.ui.select
  vim.ui.select = function(items, _, on_choice)
    for i, item in ipairs(items) do
      local action = item.action or item[2] or item
      if vim.startswith(action.title or '', 'Apply all blocks') then
        return on_choice(item, i)
      end
    end
    on_choice(nil, nil)
  end
  applied = 0
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.lsp.buf.code_action()
  vim.wait(10000, function() return applied > 0 end, 20)
  vim.ui.select = select
  local tb = vim.fn.bufnr(vim.fn.getcwd() .. '/drafts/TODO.md')
  check(applied == 1 and tb > 0 and vim.bo[tb].modified and table.concat(vim.api.nvim_buf_get_lines(tb, 0, -1, false), '\n') == '# Todo',
    'code action "Apply all blocks" of a new file: a modified buffer holding its text', tostring(tb))
  check(not uv.fs_stat('drafts/TODO.md') and not uv.fs_stat('drafts'), 'code action "Apply all blocks" of a new file: nothing on disk before :w')
  vim.cmd('bwipeout! ' .. fourth)

  -- :help fsrb, right after the README's set-up.
  local ok, err = pcall(vim.cmd, 'help fsrb')
  check(ok and vim.bo.buftype == 'help', ':help fsrb opens the plugin\'s help', tostring(err))
  if ok then
    vim.cmd('helpclose')
  end

  -- :checkhealth fsrb while everything runs: OK, and both patches counted.
  vim.cmd('checkhealth fsrb')
  local health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  check(not health:find('ERROR', 1, true) and health:find('3 of 3 open patch buffer(s) attached to an fsrb client', 1, true)
    and health:find('server: ', 1, true), ':checkhealth fsrb: the server found, 3 of 3 patch buffers attached, no ERROR', health)
  vim.cmd('bwipeout')

  -- :checkhealth fsrb with no server to start: an ERROR with the words a
  -- patch opening shows.
  local fsrb = require('fsrb')
  local bogus = { vim.fn.getcwd() .. '/no/such/fsrb-lsp' }
  local saved
  if mode == 'enable' then
    saved = vim.lsp.config.fsrb.cmd
    vim.lsp.config('fsrb', { cmd = bogus })
  else
    saved = fsrb.config.cmd
    fsrb.config.cmd = bogus
  end
  vim.cmd('checkhealth fsrb')
  health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  vim.cmd('bwipeout')
  local notes = {}
  local notify = vim.notify
  vim.notify = function(msg, level) table.insert(notes, { msg = msg, level = level }) end
  fsrb._warned = false
  fsrb.attach(second)
  vim.notify = notify
  if mode == 'enable' then
    vim.lsp.config('fsrb', { cmd = saved })
  else
    fsrb.config.cmd = saved
  end
  local said = (notes[1] and notes[1].msg or ''):gsub('^fsrb: ', ''):gsub('; :checkhealth fsrb$', '')
  check(said ~= '' and health:find('ERROR', 1, true) and health:find(said, 1, true) ~= nil,
    ':checkhealth fsrb without a server: an ERROR saying what opening a patch says', said .. '\n' .. health)
end

run.finish(main)
