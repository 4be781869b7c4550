-- The runner's step 7b (editors/e2e/nvim/runner.lua): the files of the
-- patch changed on disk by another program, the fsrb CLI (FSRB_CLI), while
-- Neovim holds them in buffers the plugin attached to, hidden ones too.
-- Starts where step 7 ends (the patch applied, saved, reverted, saved: the
-- disk is fixture/before) and ends there again.
--   - The CLI applies the patch: :Fsrb status says applied at once, every
--     target buffer holds what the disk holds and is unmodified, and
--     :Fsrb apply sends no edit and writes nothing.
--   - The CLI reverts it: the buffers follow with no command run (the
--     plugin's watchers).
--   - A target buffer with unsaved changes when the CLI applies the patch:
--     a disk-conflict error on its blocks, no "Apply all blocks", the
--     buffer kept as it is; :edit! settles it.
return function(t)
  local check, log, ws, buf, fsrb = t.check, t.log, t.ws, t.buf, t.fsrb
  local cli = os.getenv('FSRB_CLI')
  if not cli or cli == '' then
    check(false, 'FSRB_CLI names the fsrb command line')
    return
  end

  local edits_applied = 0
  local au = vim.api.nvim_create_autocmd('User', { pattern = 'FsrbEditApplied', callback = function() edits_applied = edits_applied + 1 end })

  local function run_cli(args, what)
    local cmd = { cli }
    vim.list_extend(cmd, args)
    local out = vim.fn.system(cmd)
    check(vim.v.shell_error == 0, what, out)
  end

  -- The loaded buffers of files inside the workspace (patches aside).
  local function targets()
    local out = {}
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      local name = vim.api.nvim_buf_get_name(b)
      if vim.api.nvim_buf_is_loaded(b) and vim.startswith(name, ws .. '/') and not name:match('%.fsrb$') and vim.bo[b].buftype == '' then
        out[name:sub(#ws + 2)] = b
      end
    end
    return out
  end
  -- The text a buffer would write.
  local function text_of(b)
    local lines = vim.api.nvim_buf_get_lines(b, 0, -1, false)
    local s = table.concat(lines, '\n')
    if vim.bo[b].eol and not (#lines == 1 and lines[1] == '') then
      s = s .. '\n'
    end
    return s
  end
  -- The target buffers that differ from the disk or are modified, as
  -- "path (why)"; those of files gone from disk are left out (the buffer
  -- of a deleted file stays).
  local function out_of_step(skip)
    local bad = {}
    for path, b in pairs(targets()) do
      local disk = t.read(ws .. '/' .. path)
      if disk and not (skip and skip[path]) then
        if vim.bo[b].modified then
          table.insert(bad, path .. ' (modified)')
        elseif text_of(b) ~= disk then
          table.insert(bad, string.format('%s (holds %q, the disk %q)', path, text_of(b), disk))
        end
      end
    end
    table.sort(bad)
    return bad
  end
  local function status()
    local st
    fsrb.status(buf, function(err, result) st = { err = err, result = result } end)
    vim.wait(5000, function() return st ~= nil end, 20)
    local blocks = {}
    for _, b in ipairs((st and type(st.result) == 'table' and st.result.blocks) or {}) do
      table.insert(blocks, string.format('#%d %s', b.number, b.state))
    end
    return st and type(st.result) == 'table' and st.result.state or 'no answer', table.concat(blocks, ', ')
  end
  local function codes(code)
    local n = 0
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code == code) then
        n = n + 1
      end
    end
    return n
  end

  local loaded = vim.tbl_keys(targets())
  table.sort(loaded)
  log('     target buffers loaded: %s', table.concat(loaded, ', '))
  check(targets()['README.md'] and vim.fn.bufwinnr(targets()['README.md']) == -1, 'README.md is a hidden buffer the plugin attached to',
    tostring(targets()['README.md']))

  -- 1. The CLI applies the patch.
  run_cli({ 'change.fsrb' }, 'the fsrb CLI applied change.fsrb on disk')
  t.same_tree('after the CLI applied the patch', t.expected, ws)
  local state, blocks = status()
  check(state == 'applied' and not blocks:find('ready', 1, true) and not blocks:find('problem', 1, true),
    ':Fsrb status right after the CLI applied the patch: applied, every block applied', state .. ': ' .. blocks)
  local bad = out_of_step()
  check(#bad == 0, 'every target buffer holds what the disk holds, unmodified', table.concat(bad, '; '))
  check(vim.wait(5000, function() return #t.titled(t.actions(nil), 'Apply all blocks') == 0 end, 50),
    'no "Apply all blocks" offered', select(2, t.titled(t.actions(nil), '')))
  local disk_before = t.tree(ws)
  local said = {}
  local notify_was = vim.notify
  vim.notify = function(msg, level) table.insert(said, { msg = msg, level = level }) end
  local n = edits_applied
  fsrb.last_command = nil
  vim.cmd('Fsrb apply')
  vim.wait(5000, function() return fsrb.last_command ~= nil end, 20)
  vim.notify = notify_was
  vim.cmd('silent! wall')
  local last = fsrb.last_command or {}
  -- (Neovim 0.12 shows the server's message through vim.notify, older ones
  -- print it.)
  local errors = vim.tbl_filter(function(m) return m.level == vim.log.levels.ERROR or not m.msg:find('nothing to apply', 1, true) end, said)
  check(last.command == 'fsrb.applyAll' and last.err == nil and last.result == nil and #errors == 0,
    ':Fsrb apply: fsrb.applyAll answered, no error, nothing applied ("nothing to apply")', vim.inspect({ last, said }))
  check(edits_applied == n and vim.deep_equal(t.tree(ws), disk_before), ':Fsrb apply then :wall: no edit, no byte written',
    string.format('%d edits', edits_applied - n))

  -- 2. The CLI reverts it: the buffers follow with no command run.
  run_cli({ '--revert', 'change.fsrb' }, 'the fsrb CLI reverted change.fsrb on disk')
  t.same_tree('after the CLI reverted the patch', t.before, ws)
  local followed = vim.wait(5000, function() return #out_of_step() == 0 end, 50)
  check(followed, 'the target buffers followed the disk with no command run (the watchers)', table.concat(out_of_step(), '; '))
  state, blocks = status()
  check(state == 'ready', ':Fsrb status after the CLI reverted: ready', state .. ': ' .. blocks)

  -- 3. src/app.py with unsaved changes when the CLI applies the patch.
  local app = targets()['src/app.py']
  vim.api.nvim_buf_set_lines(app, 0, 0, false, { '# an unsaved line' })
  run_cli({ 'change.fsrb' }, 'the fsrb CLI applied change.fsrb over the modified src/app.py buffer')
  local shown = vim.wait(5000, function() return codes('disk-conflict') > 0 end, 50)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(list, string.format('%d:%s:%s', d.lnum + 1, tostring(d.code), d.message:gsub('\n.*', '')))
  end
  check(shown and codes('disk-conflict') == 2, 'a disk-conflict error on each block of src/app.py (#2, #3), with no command run', table.concat(list, ' | '))
  log('     diagnostics: %s', table.concat(list, ' | '))
  local conflict
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('src/app.py changed on disk while its buffer has unsaved changes', 1, true) and d.severity == vim.diagnostic.severity.ERROR then
      conflict = d
    end
  end
  check(conflict ~= nil, 'the error says "src/app.py changed on disk while its buffer has unsaved changes"', table.concat(list, ' | '))
  local titles = select(2, t.titled(t.actions(nil), ''))
  check(#t.titled(t.actions(nil), 'Apply all blocks') == 0 and #t.titled(t.actions(nil), 'Revert all blocks') == 0,
    'no "Apply all blocks" nor "Revert all blocks" offered', titles)
  state, blocks = status()
  check(state == 'problems' and blocks:find('#2 problem', 1, true) and blocks:find('#3 problem', 1, true) and blocks:find('#1 applied', 1, true),
    ':Fsrb status: problems; #2 and #3 (src/app.py) problem, #1 (README.md) applied', state .. ': ' .. blocks)
  check(vim.bo[app].modified and vim.api.nvim_buf_get_lines(app, 0, 1, false)[1] == '# an unsaved line', 'the modified src/app.py buffer is kept as it is')
  bad = out_of_step({ ['src/app.py'] = true })
  check(#bad == 0, 'the other target buffers hold what the disk holds', table.concat(bad, '; '))
  -- :edit! takes the disk's text: no conflict, the patch applied, the
  -- buffer still synced.
  vim.api.nvim_buf_call(app, function() vim.cmd('silent edit!') end)
  check(vim.wait(2000, function() return #fsrb.clients(app) == 1 end, 20), ':edit! of src/app.py: still attached to the fsrb client')
  local settled = vim.wait(5000, function() return codes('disk-conflict') == 0 end, 50)
  state, blocks = status()
  check(settled and state == 'applied', ':edit! of src/app.py: the conflict gone, the patch applied', state .. ': ' .. blocks)

  -- Back to fixture/before for the steps after this one.
  run_cli({ '--revert', 'change.fsrb' }, 'the fsrb CLI reverted change.fsrb again')
  followed = vim.wait(5000, function() return #out_of_step() == 0 end, 50)
  check(followed, 'the target buffers followed the disk again', table.concat(out_of_step(), '; '))
  t.same_tree('after the CLI reverted the patch again', t.before, ws)
  state = status()
  check(state == 'ready', ':Fsrb status: ready again', state)
  vim.api.nvim_del_autocmd(au)
end
