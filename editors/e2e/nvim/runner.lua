-- End-to-end scenario in headless Neovim with the plugin from editors/nvim.
-- Run by editors/e2e/nvim.sh inside a scratch copy of the fixture:
--   FSRB_PLUGIN (editors/nvim), FSRB_LSP (the built server),
--   FSRB_EXPECTED (fixture/after), FSRB_BEFORE (fixture/before), FSRB_CLI
--   (the built fsrb command line) and the working directory = the
--   workspace;
--   FSRB_MODE: how init.lua configured the plugin, installed as a plain
--   package: `setup` (require('fsrb').setup{cmd=...}), `g` (vim.g.fsrb =
--   {cmd=...}, no setup() call) or `enable` (vim.lsp.enable('fsrb') and
--   nothing else, the server found on $PATH; Neovim 0.11+). Unset: the
--   plugin put on 'runtimepath' here and set up with setup().
-- Runs on Neovim 0.7, 0.10 and 0.12 alike (no API 0.12 calls deprecated).
-- Exit: 0 passed, 1 a check failed, 2 a Lua error.
local uv = vim.uv or vim.loop
local lib = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'check-lib.lua')
local run = lib.new('nvim')
local log, check, ms = run.log, run.check, run.ms
local read, lenses = lib.read, lib.lenses
local function fatal(msg)
  error(msg, 0)
end

-- Every file (path -> bytes; patches left out) and every folder under root.
local function tree(root)
  local files, dirs = {}, {}
  local function walk(rel)
    local dir = rel == '' and root or (root .. '/' .. rel)
    local h = uv.fs_scandir(dir)
    while h do
      local name, typ = uv.fs_scandir_next(h)
      if not name then
        break
      end
      local r = rel == '' and name or (rel .. '/' .. name)
      if typ == 'directory' then
        dirs[r] = true
        walk(r)
      elseif not name:match('%.fsrb$') then
        files[r] = read(root .. '/' .. r)
      end
    end
  end
  walk('')
  return files, dirs
end

-- The workspace compared with a fixture folder, byte for byte, folders too.
local function same_tree(label, want_root, ws)
  local want, want_dirs = tree(want_root)
  local have, have_dirs = tree(ws)
  local paths = {}
  for path in pairs(want) do
    table.insert(paths, path)
  end
  table.sort(paths)
  for _, path in ipairs(paths) do
    local w, h = want[path], have[path]
    check(h == w, label .. ': ' .. path .. ' has the expected bytes', h == nil and 'missing' or string.format('got %q, want %q', h, w))
  end
  for path in pairs(have) do
    if want[path] == nil then
      check(false, label .. ': ' .. path .. ' should not exist')
    end
  end
  for dir in pairs(have_dirs) do
    if not want_dirs[dir] then
      check(false, label .. ': folder ' .. dir .. '/ should not exist (left empty)')
    end
  end
  for dir in pairs(want_dirs) do
    if not have_dirs[dir] then
      check(false, label .. ': folder ' .. dir .. '/ missing')
    end
  end
end

-- The inlay hints Neovim holds for buf, as "line:label" (0.10+).
local function hint_labels(buf)
  local out = {}
  for _, h in ipairs(vim.lsp.inlay_hint.get({ bufnr = buf })) do
    local label = h.inlay_hint.label
    if type(label) == 'table' then
      local parts = {}
      for _, part in ipairs(label) do
        table.insert(parts, part.value)
      end
      label = table.concat(parts)
    end
    table.insert(out, string.format('%d:%s', h.inlay_hint.position.line + 1, tostring(label)))
  end
  return table.concat(out, ' | ')
end

-- client:request_sync on 0.11+ (0.12 calls client.request_sync deprecated).
local function request_sync(client, ...)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request_sync(...)
  end
  return client.request_sync(...)
end

-- Every loaded buffer's name, text and 'modified'.
local function buffers()
  local out = {}
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      out[vim.api.nvim_buf_get_name(b)] = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
        .. (vim.bo[b].modified and ' [+]' or '')
    end
  end
  return out
end

-- :Fsrb preview in the patch buffer buf (every block valid, none
-- applied), checked; returns the preview left open (its tab page current)
-- for :Fsrb apply, or nil when the server has no preview command.
local function preview_checks(buf, ws, expected)
  local before = os.getenv('FSRB_BEFORE')
  local P
  local function open()
    local said = {}
    local notify_was = vim.notify
    vim.notify = function(msg, level) table.insert(said, { msg = msg, level = level }) end
    vim.cmd('Fsrb preview')
    P = package.loaded['fsrb.preview']
    vim.wait(5000, function() return (P and P.shown ~= nil) or #said > 0 end, 20)
    vim.notify = notify_was
    return P and P.shown, said
  end
  local tabs0 = #vim.api.nvim_list_tabpages()
  local p, said = open()
  if not p then
    local msg = said[1] and said[1].msg or '(nothing said)'
    if os.getenv('FSRB_E2E_REQUIRE_PREVIEW') ~= '0' then
      check(false, ':Fsrb preview opens the preview', msg)
    else
      check(msg:find('this fsrb-lsp has no preview', 1, true) and said[1].level == vim.log.levels.ERROR,
        ':Fsrb preview with a server that has no fsrb.preview says so clearly', msg)
      log('NOTE the server has no preview command (fsrb.preview): the preview was not checked')
    end
    same_tree('after :Fsrb preview', before, ws)
    return nil
  end
  -- One tab page per file, the first one current; in each, the current
  -- text (left) and the proposed text (right) in diff mode.
  local want_ops = { ['README.md'] = 'modify', ['src/app.py'] = 'modify', ['docs/guide/usage.md'] = 'create', ['legacy/old.txt'] = 'delete' }
  check(#p.tabs == 4 and #vim.api.nvim_list_tabpages() == tabs0 + 4 and vim.api.nvim_get_current_tabpage() == p.tabs[1],
    ':Fsrb preview: 4 tab pages (one per file), the first one current', string.format('%d preview tab pages, %d in all', #p.tabs, #vim.api.nvim_list_tabpages()))
  local function text(b)
    local lines = vim.api.nvim_buf_get_lines(b, 0, -1, false)
    if #lines == 1 and lines[1] == '' then
      return ''
    end
    return table.concat(lines, '\n') .. '\n'
  end
  local ndiff, seen, header = 0, {}, nil
  for i, tab in ipairs(p.tabs) do
    local left, right
    for _, w in ipairs(vim.api.nvim_tabpage_list_wins(tab)) do
      local b = vim.api.nvim_win_get_buf(w)
      local name = vim.api.nvim_buf_get_name(b)
      if vim.wo[w].diff then
        ndiff = ndiff + 1
        if name:find('^fsrb://current/') then
          left = b
        elseif name:find('^fsrb://proposed/') then
          right = b
        end
      elseif name == '' then
        header = b
      end
    end
    local path = left and vim.api.nvim_buf_get_name(left):sub(#'fsrb://current/' + 1) or '?'
    local f = p.files[i] or {}
    seen[path] = f.operation
    check(left and right and vim.api.nvim_buf_get_name(right) == 'fsrb://proposed/' .. path and f.path == path,
      string.format('preview tab page %d: fsrb://current/%s | fsrb://proposed/%s, in diff mode', i, path, path),
      vim.inspect({ left and vim.api.nvim_buf_get_name(left), right and vim.api.nvim_buf_get_name(right), f.path }))
    if left and right then
      check(not vim.bo[left].modifiable and not vim.bo[right].modifiable and vim.bo[left].buftype == 'nofile' and vim.bo[right].buftype == 'nofile',
        '  ' .. path .. ': both sides read-only scratch buffers')
      local op = want_ops[path]
      local want_left = op == 'create' and '' or read(before .. '/' .. path)
      local want_right = op == 'delete' and '' or read(expected .. '/' .. path)
      check(text(left) == want_left, string.format('  %s (%s): the current side is fixture/before/%s', path, tostring(op), op == 'create' and '(empty)' or path),
        string.format('%q', text(left)))
      check(text(right) == want_right, string.format('  %s (%s): the proposed side is %s', path, tostring(op), op == 'delete' and '(empty)' or 'fixture/after/' .. path),
        string.format('%q', text(right)))
    end
  end
  check(ndiff == 8, 'the preview has 8 diff windows (2 per file)', tostring(ndiff))
  check(vim.deep_equal(seen, want_ops), 'the preview shows README.md, src/app.py (modify), docs/guide/usage.md (create), legacy/old.txt (delete)', vim.inspect(seen))
  local htext = header and vim.api.nvim_buf_get_lines(header, 0, 1, false)[1] or ''
  check(htext:find('fsrb preview: 4 files — :Fsrb apply to apply all, :tabclose to close', 1, true),
    'the header: "fsrb preview: 4 files — :Fsrb apply to apply all, :tabclose to close"', htext)
  local tl = P.tabline()
  check(vim.o.tabline:find('fsrb.preview', 1, true) and tl:find('1/4 README.md', 1, true) and tl:find('2/4 src/app.py', 1, true)
    and tl:find('3/4 docs/guide/usage.md (new)', 1, true) and tl:find('4/4 legacy/old.txt (deleted)', 1, true),
    'the tab pages labelled "1/4 README.md" … "4/4 legacy/old.txt (deleted)" (no \'tabline\' of the user\'s)', vim.o.tabline .. ' → ' .. tl)
  same_tree('after :Fsrb preview', before, ws)
  -- Not in the preview: single blocks.
  local said2 = {}
  local notify_was = vim.notify
  vim.notify = function(msg) table.insert(said2, msg) end
  vim.cmd('Fsrb apply-block 1')
  vim.notify = notify_was
  check(said2[1] and said2[1]:find('does not work in the preview', 1, true), ':Fsrb apply-block in the preview is refused', vim.inspect(said2))

  -- :Fsrb apply once the change is no longer the one shown (a line typed
  -- into src/app.py, unsaved): nothing applied, the preview shown again
  -- with the change as it is.
  local app = vim.fn.bufnr(ws .. '/src/app.py')
  vim.api.nvim_buf_set_lines(app, 0, 0, false, { '# typed after the preview' })
  local said3 = {}
  vim.notify = function(msg, level) table.insert(said3, { msg = msg, level = level }) end
  vim.cmd('Fsrb apply')
  local renewed = vim.wait(5000, function() return P.shown ~= nil and P.shown ~= p end, 20)
  vim.notify = notify_was
  local p2 = P.shown
  local app_right
  for i, f in ipairs(p2 and p2.files or {}) do
    if f.path == 'src/app.py' then
      app_right = vim.api.nvim_win_get_buf(p2.wins[i].proposed)
    end
  end
  check(renewed and said3[1] and said3[1].msg:find('nothing applied: the change is no longer the one the preview showed', 1, true)
    and app_right and vim.api.nvim_buf_get_lines(app_right, 0, 1, false)[1] == '# typed after the preview',
    ':Fsrb apply in a stale preview: nothing applied, the preview shown again with the new line', vim.inspect(said3))
  same_tree('after :Fsrb apply in a stale preview', before, ws)
  vim.api.nvim_buf_set_lines(app, 0, 1, false, {})
  vim.cmd('silent! wall')
  p = P.shown or p

  -- :tabclose on one of its tab pages closes the whole preview; nothing changes.
  vim.api.nvim_set_current_tabpage(p.tabs[2])
  vim.cmd('tabclose')
  local closed = vim.wait(2000, function() return P.shown == nil and #vim.api.nvim_list_tabpages() == tabs0 end, 20)
  local left_over = {}
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b):find('^fsrb://') then
      table.insert(left_over, vim.api.nvim_buf_get_name(b))
    end
  end
  check(closed and #left_over == 0 and vim.o.tabline == '', ':tabclose in the preview closes all of it, its buffers wiped, \'tabline\' back to empty',
    string.format('%d tab pages, buffers %s', #vim.api.nvim_list_tabpages(), table.concat(left_over, ', ')))
  same_tree('after closing the preview', before, ws)
  check(vim.api.nvim_get_current_buf() == buf, 'closing the preview: back on the patch', vim.api.nvim_buf_get_name(0))

  -- Open again, for :Fsrb apply.
  p = open()
  check(p ~= nil and vim.api.nvim_get_current_tabpage() == p.tabs[1], ':Fsrb preview again: open, for :Fsrb apply')
  return p
end

local function main()
  local plugin, lsp, expected = os.getenv('FSRB_PLUGIN'), os.getenv('FSRB_LSP'), os.getenv('FSRB_EXPECTED')
  assert(plugin and lsp and expected, 'FSRB_PLUGIN, FSRB_LSP and FSRB_EXPECTED must be set')
  local ws = vim.fn.getcwd()
  log('Neovim %s, workspace %s', tostring(vim.version and vim.version().minor and ('0.' .. vim.version().minor .. '.' .. vim.version().patch)), ws)

  local mode = os.getenv('FSRB_MODE')
  log('     configured by: %s', mode or 'this runner')
  if mode then
    -- Installed as a plain package (pack/*/start), configured by init.lua.
    check(vim.fn.exists(':Fsrb') == 2, ':Fsrb defined at startup (plugin/fsrb.lua)')
    check(vim.fn.exists(':FsrbApplyAll') == 2, ':FsrbApplyAll still defined (a deprecated alias)')
    local plug = vim.fn.maparg('<Plug>(fsrb-apply)', 'n', false, true)
    check(type(plug) == 'table' and next(plug) ~= nil, '<Plug>(fsrb-apply) mapped')
    if mode == 'setup' then
      check(require('fsrb')._setup_by == 'setup()', "init.lua's require('fsrb').setup{} ran", tostring(require('fsrb')._setup_by))
    elseif mode == 'g' then
      local m = package.loaded['fsrb']
      check(m == nil or not m._did_setup, 'vim.g.fsrb: nothing set up before the first patch opens')
    elseif mode == 'enable' then
      check(vim.lsp.is_enabled and vim.lsp.is_enabled('fsrb'), "vim.lsp.enable('fsrb') enabled the config")
      local cfg = vim.lsp.config.fsrb
      check(cfg and vim.deep_equal(cfg.cmd, { 'fsrb-lsp' }) and type(cfg.root_dir) == 'function' and cfg.filetypes == nil,
        "lsp/fsrb.lua read from the runtimepath: cmd { 'fsrb-lsp' }, a root_dir function, no filetypes", vim.inspect(cfg and { cfg.cmd, cfg.filetypes }))
    end
    plug = vim.fn.maparg('<Plug>(fsrb-preview)', 'n', false, true)
    check(type(plug) == 'table' and next(plug) ~= nil, '<Plug>(fsrb-preview) mapped')
    -- :Fsrb completes its subcommands.
    local subs = vim.fn.getcompletion('Fsrb ', 'cmdline')
    check(table.concat(subs, ' ') == 'apply apply-block skip include preview revert revert-block status paste log restart',
      ':Fsrb completes apply apply-block skip include preview revert revert-block status paste log restart', table.concat(subs, ' '))
    subs = vim.fn.getcompletion('Fsrb p', 'cmdline')
    check(table.concat(subs, ' ') == 'preview paste', ':Fsrb p<Tab>: preview paste', table.concat(subs, ' '))
    subs = vim.fn.getcompletion('Fsrb re', 'cmdline')
    check(table.concat(subs, ' ') == 'revert revert-block restart', ':Fsrb re<Tab>: revert revert-block restart', table.concat(subs, ' '))
    check(#vim.fn.getcompletion('Fsrb apply ', 'cmdline') == 0, ':Fsrb apply <Tab>: nothing more')
    local said_preview = {}
    local notify_preview = vim.notify
    vim.notify = function(msg, level) table.insert(said_preview, msg) end
    vim.cmd('Fsrb preview')
    vim.cmd('Fsrb frobnicate')
    vim.notify = notify_preview
    check(#said_preview == 2 and said_preview[1]:find('there is no patch in this buffer', 1, true) and said_preview[2]:find("unknown subcommand 'frobnicate'", 1, true),
      ':Fsrb preview outside a patch: "there is no patch in this buffer"; an unknown subcommand is named', vim.inspect(said_preview))
  else
    -- As a user's config would: the plugin on 'runtimepath', filetype detection on.
    vim.opt.runtimepath:prepend(plugin)
    vim.cmd('filetype plugin on')
    vim.cmd('syntax on')
    require('fsrb').setup({ cmd = { lsp, '--log-file', ws .. '/../fsrb-lsp.log' } })
  end

  local applied = 0
  vim.api.nvim_create_autocmd('User', { pattern = 'FsrbEditApplied', callback = function() applied = applied + 1 end })

  -- src/app.py is open before the patch (the client attaches to it when it
  -- starts); README.md and docs/guide/usage.md are loaded by the edit.
  vim.cmd('edit src/app.py')
  local app = vim.api.nvim_get_current_buf()
  vim.cmd('edit change.fsrb')
  local buf = vim.api.nvim_get_current_buf()
  check(vim.bo[buf].filetype == 'fsrb', 'ftdetect: *.fsrb has filetype fsrb', vim.bo[buf].filetype)
  local marker = vim.fn.search('^<<<<<<< SEARCH', 'nw')
  local syn = vim.fn.synIDattr(vim.fn.synID(marker, 1, 1), 'name')
  check(syn == 'fsrbSearchMarker', 'syntax: SEARCH marker highlighted', syn)
  if mode == 'g' then
    check(require('fsrb')._setup_by == 'vim.g.fsrb', 'the first patch set the plugin up from vim.g.fsrb', tostring(require('fsrb')._setup_by))
  elseif mode == 'enable' then
    check(require('fsrb')._setup_by == "vim.lsp.enable('fsrb')", "lsp/fsrb.lua set the plugin up (no setup() call)", tostring(require('fsrb')._setup_by))
  end

  -- 1. The two diagnostics: block #2 ambiguous (error), block #3 inherits its path (information).
  local function diags()
    return vim.diagnostic.get(buf)
  end
  local function has_code(code)
    for _, d in ipairs(diags()) do
      if d.code == code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code == code) then
        return d
      end
    end
  end
  local got = vim.wait(10000, function() return #diags() >= 2 end, 20)
  local list = {}
  for _, d in ipairs(diags()) do
    table.insert(list, string.format('%d:%s:%s', d.lnum + 1, tostring(d.code), d.message:gsub('\n.*', '')))
  end
  check(got and #diags() == 2, 'two diagnostics published', table.concat(list, ' | '))
  log('     diagnostics: %s', table.concat(list, ' | '))
  local amb = has_code('ambiguous')
  check(amb and amb.severity == vim.diagnostic.severity.ERROR, 'block #2: ambiguous, an error')
  local inh = has_code('inherited-path')
  check(inh ~= nil, 'block #3: inherited-path note')
  if not amb then
    fatal('no ambiguous diagnostic: cannot go on')
  end
  if vim.fn.has('nvim-0.12') == 1 then
    -- 0.12's diagnostic float lists the related information: each place.
    vim.api.nvim_win_set_cursor(0, { amb.lnum + 1, 0 })
    local fbuf, fwin = vim.diagnostic.open_float({ scope = 'line' })
    local text = fbuf and table.concat(vim.api.nvim_buf_get_lines(fbuf, 0, -1, false), '\n') or ''
    if fwin then
      vim.api.nvim_win_close(fwin, true)
    end
    check(text:find('app.py:5:1: occurrence 1 of 2', 1, true) and text:find('app.py:10:1: occurrence 2 of 2', 1, true),
      "0.12: the diagnostic float lists block #2's places (related information)", text)
  end
  check(#require('fsrb').clients(buf) == 1, 'one client attached')
  check(vim.wait(2000, function() return #require('fsrb').clients(app) == 1 end, 20),
    'src/app.py, open before the patch, attached to the client when it started')

  -- 2. Disambiguate block #2 so that it targets farewell().
  local client = require('fsrb').clients(buf)[1]
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = amb.lnum, character = 0 }, ['end'] = { line = amb.lnum, character = 0 } },
    context = { diagnostics = { amb.user_data and amb.user_data.lsp or {} }, only = { 'quickfix' } },
  }
  local res = request_sync(client, 'textDocument/codeAction', params, 5000, buf)
  local titles, fix = {}, nil
  for _, a in ipairs((res and res.result) or {}) do
    table.insert(titles, a.title)
    if a.title:find('farewell', 1, true) then
      fix = a
    end
  end
  log('     quick fixes offered on block #2: %s', #titles > 0 and table.concat(titles, ' | ') or '(none)')
  if fix then
    -- Through the real UI path: :lua vim.lsp.buf.code_action() with the
    -- menu answered by picking the fix.
    vim.ui.select = function(items, opts, on_choice)
      for i, item in ipairs(items) do
        local action = item[2] or item.action or item
        if action.title == fix.title then
          return on_choice(item, i)
        end
      end
      on_choice(nil, nil)
    end
    vim.api.nvim_win_set_cursor(0, { amb.lnum + 1, 0 })
    if vim.fn.has('nvim-0.8') == 1 then
      vim.lsp.buf.code_action({ context = { diagnostics = params.context.diagnostics, only = { 'quickfix' } } })
    else
      vim.lsp.buf.code_action({ diagnostics = params.context.diagnostics, only = { 'quickfix' } })
    end
    log('     applied quick fix %q', fix.title)
  else
    -- The server names each place's function (tree-sitter) and offers a
    -- fix for each; a missing one is a regression, not a case to work
    -- around by typing the lines in.
    check(false, 'the server offers a "target the occurrence in farewell" quick fix', #titles > 0 and table.concat(titles, ' | ') or '(none)')
  end
  local gone = vim.wait(10000, function() return not has_code('ambiguous') and #diags() == 1 end, 20)
  check(gone, 'the ambiguous diagnostic went away; only the note is left', tostring(#diags()))
  local function lens_titles()
    local t = {}
    for _, l in ipairs(lenses(buf)) do
      table.insert(t, l.command and l.command.title or '?')
    end
    return table.concat(t, ' | ')
  end
  vim.wait(5000, function() return lens_titles():find('#2 applies at src/app.py:9', 1, true) ~= nil end, 20)
  check(lens_titles():find('#2 applies at src/app.py:9', 1, true), 'code lenses refreshed by the plugin: "#2 applies at src/app.py:9"', lens_titles())
  if vim.fn.has('nvim-0.12') == 1 then
    -- 0.12 draws the lenses as virtual lines above each block.
    vim.cmd('redraw')
    local above = {}
    for name, ns in pairs(vim.api.nvim_get_namespaces()) do
      if name:find('^nvim%.lsp%.codelens:') then
        for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
          local d = m[4] or {}
          if d.virt_lines and d.virt_lines_above then
            local t = {}
            for _, chunk in ipairs(d.virt_lines[1] or {}) do
              table.insert(t, chunk[1])
            end
            table.insert(above, vim.trim(table.concat(t)))
          end
        end
      end
    end
    check(#above >= 2 and table.concat(above, ' | '):find('#2 applies at src/app.py:9', 1, true),
      '0.12: the code lenses are virtual lines above the blocks', table.concat(above, ' | '))
  end

  -- 2b. Inlay hints (0.12, when the server offers them): where each block
  -- lands, at the end of its opening line ("→ README.md:3"), drawn.
  if vim.fn.has('nvim-0.10') == 1 and vim.fn.has('nvim-0.12') == 0 then
    -- 0.10 draws the lenses at the end of the line: a hint there would
    -- say the same again.
    check(not vim.lsp.inlay_hint.is_enabled({ bufnr = buf }), '0.10: no inlay hints by default (the lens at the line end says where)')
  elseif vim.fn.has('nvim-0.12') == 1 then
    if (client.server_capabilities or {}).inlayHintProvider then
      check(vim.lsp.inlay_hint.is_enabled({ bufnr = buf }), 'inlay hints enabled for the patch buffer')
      local got_hint = vim.wait(5000, function() return hint_labels(buf):find('→ README.md:3', 1, true) ~= nil end, 20)
      check(got_hint, 'an inlay hint "→ README.md:3" on block #1', hint_labels(buf))
      log('     inlay hints: %s', hint_labels(buf))
      if vim.fn.has('nvim-0.12') == 1 then
        vim.cmd('redraw')
        local drawn = {}
        for name, ns in pairs(vim.api.nvim_get_namespaces()) do
          if name:find('inlayhint', 1, true) then
            for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
              for _, chunk in ipairs((m[4] or {}).virt_text or {}) do
                table.insert(drawn, chunk[1])
              end
            end
          end
        end
        check(table.concat(drawn, ' '):find('→ README.md:3', 1, true), '0.12: the hint "→ README.md:3" is drawn in the patch buffer', table.concat(drawn, ' | '))
      end
    elseif os.getenv('FSRB_E2E_REQUIRE_INLAY') ~= '0' then
      check(false, 'the server offers inlay hints')
    else
      log('NOTE the server offers no inlay hints: not checked')
    end
  end

  -- 3. "Apply all blocks" is offered, once, whatever kinds are asked for.
  local function actions(only)
    local r = request_sync(client, 'textDocument/codeAction', {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      range = { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 0 } },
      context = { diagnostics = {}, only = only },
    }, 5000, buf)
    return (r and r.result) or {}
  end
  local function titled(list, prefix)
    local found, titles = {}, {}
    for _, a in ipairs(list) do
      table.insert(titles, a.title)
      if vim.startswith(a.title, prefix) then
        table.insert(found, a)
      end
    end
    return found, table.concat(titles, ' | ')
  end
  local all, offered = titled(actions({ 'source.applyAll.fsrb' }), 'Apply all blocks')
  check(#all == 1 and all[1].kind == 'source.applyAll.fsrb', 'code action "Apply all blocks" offered under only = {source.applyAll.fsrb}', offered)
  all, offered = titled(actions(nil), 'Apply all blocks')
  check(#all == 1, 'code action "Apply all blocks" listed exactly once with no kind filter', offered)
  check(#all == 1 and all[1].edit == nil and (all[1].command or {}).command == 'fsrb.applyAll',
    'code action "Apply all blocks" runs fsrb.applyAll, no edit of its own (the edit comes to the fsrb client as workspace/applyEdit)',
    vim.inspect(all[1] and all[1].command))
  -- The plugin handles edits for its own client only: every other
  -- server's edits go through Neovim's functions, untouched.
  local function neovims(f)
    local src = type(f) == 'function' and debug.getinfo(f, 'S').source or ''
    return src:find('/lua/vim/lsp/', 1, true) ~= nil
  end
  check(neovims(vim.lsp.util.apply_workspace_edit) and neovims(vim.lsp.handlers['workspace/applyEdit']),
    "vim.lsp.util.apply_workspace_edit and vim.lsp.handlers['workspace/applyEdit'] are Neovim's own")
  log('     code actions (no filter): %s', offered)
  -- The menu a user gets from :lua vim.lsp.buf.code_action() on line 1.
  local function menu()
    local titles, shown = {}, false
    local select = vim.ui.select
    vim.ui.select = function(items, _, on_choice)
      for _, item in ipairs(items) do
        local action = item.action or item[2] or item
        table.insert(titles, action.title)
      end
      shown = true
      on_choice(nil, nil)
    end
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    vim.lsp.buf.code_action()
    vim.wait(5000, function() return shown end, 20)
    vim.ui.select = select
    return titles
  end
  local items = menu()
  local n_all = 0
  for _, title in ipairs(items) do
    if vim.startswith(title, 'Apply all blocks') then
      n_all = n_all + 1
    end
  end
  check(n_all == 1, 'vim.lsp.buf.code_action() on line 1 lists "Apply all blocks" once', table.concat(items, ' | '))
  log('     vim.lsp.buf.code_action() menu: %s', table.concat(items, ' | '))
  local blocks = {}
  for _, l in ipairs(lenses(buf)) do
    local n = l.command and l.command.title and l.command.title:match('^#(%d+) ')
    if n then
      blocks[tonumber(n)] = l.command.title
    end
  end
  local nblocks = #blocks
  check(nblocks == 5 and vim.tbl_count(blocks) == 5, 'a "#N ..." status lens on each of the five blocks before applying', lens_titles())

  -- Every WorkspaceEdit the plugin applies for the server, as the
  -- operations it holds.
  local fsrb = require('fsrb')
  local orig_apply = fsrb.apply_workspace_edit
  local edits = {}
  fsrb.apply_workspace_edit = function(edit, ...)
    local ops = {}
    for _, c in ipairs(edit.documentChanges or {}) do
      local uri = c.textDocument and c.textDocument.uri or c.uri or c.oldUri
      local rel = vim.uri_to_fname(uri):sub(#ws + 2)
      if c.kind then
        local opts = {}
        for k, v in pairs(c.options or {}) do
          table.insert(opts, k .. '=' .. tostring(v))
        end
        table.sort(opts)
        table.insert(ops, c.kind .. ' ' .. (rel == '' and '.' or rel) .. (#opts > 0 and (' {' .. table.concat(opts, ',') .. '}') or ''))
      else
        local v = c.textDocument.version
        table.insert(ops, string.format('edit %s v%s (%d)', rel, v == vim.NIL and 'null' or tostring(v), #c.edits))
      end
    end
    for uri, e in pairs(edit.changes or {}) do
      table.insert(ops, string.format('changes %s (%d)', vim.uri_to_fname(uri):sub(#ws + 2), #e))
    end
    table.insert(edits, table.concat(ops, ', '))
    return orig_apply(edit, ...)
  end

  local done = 0
  vim.api.nvim_create_autocmd('User', { pattern = 'FsrbCommandDone', callback = function() done = done + 1 end })

  -- 3b. :Fsrb preview: a tab page per file, current and proposed text in
  -- diff mode; :tabclose closes it all and changes nothing; :Fsrb apply in
  -- it applies the patch and closes it. With a server that has no preview
  -- (fsrb.preview), :Fsrb preview says so and :Fsrb apply runs as usual.
  local preview = preview_checks(buf, ws, expected)
  local tabs0 = #vim.api.nvim_list_tabpages()
  done = 0
  vim.cmd('Fsrb apply')
  local want_done = preview and 2 or 1 -- in the preview: fsrb.preview again, then fsrb.applyAll
  vim.wait(10000, function() return applied >= 1 and done >= want_done end, 20)
  check(applied == 1, 'workspace/applyEdit received and applied (:Fsrb apply' .. (preview and ' in the preview)' or ')'), tostring(applied))
  local last = require('fsrb').last_command or {}
  check(done == want_done and last.command == 'fsrb.applyAll' and last.err == nil, 'executeCommand fsrb.applyAll answered without error',
    last.err and last.err.message or string.format('%d answers, last %s', done, tostring(last.command)))
  if preview then
    local P = package.loaded['fsrb.preview']
    local closed = vim.wait(2000, function() return P.shown == nil end, 20)
    local names = {}
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_get_name(b):find('^fsrb://') then
        table.insert(names, vim.api.nvim_buf_get_name(b))
      end
    end
    check(closed and #vim.api.nvim_list_tabpages() == tabs0 - #preview.tabs and #names == 0
      and vim.api.nvim_get_current_buf() == buf,
      ':Fsrb apply in the preview closed it: its tab pages and buffers gone, back on the patch',
      string.format('%d tab pages, buffers %s', #vim.api.nvim_list_tabpages(), table.concat(names, ', ')))
  end
  check(type(last.result) == 'table' and last.result.applied == true, 'the server reports the edit applied', vim.inspect(last.result))
  log('     the edit: %s', edits[#edits] or '(none)')
  -- The created file is a buffer until written: a discarded Apply leaves
  -- nothing behind (newcomer.lua quits without writing).
  local usage = vim.fn.bufnr(ws .. '/docs/guide/usage.md')
  check(not uv.fs_stat(ws .. '/docs/guide/usage.md') and not uv.fs_stat(ws .. '/docs/guide') and usage > 0 and vim.bo[usage].modified,
    'docs/guide/usage.md, created by the edit: a modified buffer, not on disk before :wall (nor its folder)')

  vim.cmd('silent! wall')

  -- 4. Every file on disk, byte for byte (created and deleted files, and
  -- the folder the deletion empties, included).
  same_tree('after apply', expected, ws)
  local function folder_buffers()
    local out = {}
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      local name = vim.api.nvim_buf_get_name(b)
      if name ~= '' and vim.fn.isdirectory(name) == 1 then
        table.insert(out, name)
      end
    end
    return table.concat(out, ', ')
  end
  check(folder_buffers() == '', 'no buffer for a folder (the server sends Neovim no CreateFile of the workspace folder)', folder_buffers())

  -- 5. The server follows: the patch is applied. The target files are
  -- attached to the client (their didOpen/didChange/didSave reach the
  -- server) but show nothing of fsrb.
  local targets = {}
  for _, path in ipairs({ 'README.md', 'src/app.py', 'docs/guide/usage.md' }) do
    local b = vim.fn.bufnr(ws .. '/' .. path)
    check(b > 0 and #fsrb.clients(b) == 1, 'target buffer ' .. path .. ' attached to the fsrb client', tostring(b))
    if b > 0 then
      targets[path] = b
    end
  end
  local function applied_lenses()
    local seen = {}
    for _, l in ipairs(lenses(buf)) do
      local n = l.command and l.command.title and l.command.title:match('^#(%d+) applied')
      if n then
        seen[n] = true
      end
    end
    return vim.tbl_count(seen)
  end
  local function errors()
    local n = 0
    for _, d in ipairs(diags()) do
      if d.severity == vim.diagnostic.severity.ERROR then
        n = n + 1
      end
    end
    return n
  end
  local t = ms()
  local shown = vim.wait(5000, function() return applied_lenses() == nblocks and errors() == 0 end, 20)
  check(shown, string.format('the patch shows applied: %d "#N applied" lenses, no error (%d ms after :wall)', nblocks, ms() - t), lens_titles())
  if vim.fn.has('nvim-0.12') == 1 then
    -- Applied blocks land nowhere: their hints go (the server's refresh).
    -- (Hints are drawn as a window is redrawn, for the lines in view: a
    -- full redraw, then those lines are checked.)
    local function drawn_hints()
      vim.cmd('redraw!')
      local top, bot = vim.fn.line('w0') - 1, vim.fn.line('w$') - 1
      local drawn = {}
      for name, ns in pairs(vim.api.nvim_get_namespaces()) do
        if name:find('inlayhint', 1, true) then
          for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, { top, 0 }, { bot, -1 }, { details = true })) do
            for _, chunk in ipairs((m[4] or {}).virt_text or {}) do
              table.insert(drawn, chunk[1])
            end
          end
        end
      end
      return table.concat(drawn, ' | ')
    end
    check(vim.wait(5000, function() return hint_labels(buf) == '' and not drawn_hints():find('→', 1, true) end, 20),
      '0.12: no inlay hint left, nor drawn in view, once every block is applied', hint_labels(buf) .. ' / drawn: ' .. drawn_hints())
  end
  -- Each "#N applied at path:line" names the line where block N's REPLACE
  -- text now stands on disk.
  local replace_first = {}
  do
    local lines, n, in_search = vim.api.nvim_buf_get_lines(buf, 0, -1, false), 0, false
    for i, text in ipairs(lines) do
      if text:match('^<<<<<<< SEARCH') then
        n, in_search = n + 1, true
      elseif in_search and text:match('^=======$') then
        replace_first[n], in_search = lines[i + 1], false
      end
    end
  end
  local located = 0
  for _, l in ipairs(lenses(buf)) do
    local title = l.command and l.command.title or ''
    local n, path, line = title:match('^#(%d+) applied at (.-):(%d+)$')
    if n then
      local on_disk = vim.split(read(ws .. '/' .. path) or '', '\n', { plain = true })[tonumber(line)]
      located = located + 1
      check(on_disk ~= nil and on_disk == replace_first[tonumber(n)],
        string.format('lens "%s": line %s of %s is block #%s\'s first REPLACE line', title, line, path, n),
        string.format('%q vs %q', tostring(on_disk), tostring(replace_first[tonumber(n)])))
    end
  end
  check(located >= 3, 'the blocks that edit text (#1-#3) have "#N applied at path:line" lenses', lens_titles())
  log('     lenses: %s', lens_titles())
  list = {}
  for _, d in ipairs(diags()) do
    table.insert(list, string.format('%d:%s:%s:%s', d.lnum + 1, tostring(d.severity), tostring(d.code), d.message:gsub('\n.*', '')))
  end
  log('     diagnostics: %s', #list > 0 and table.concat(list, ' | ') or '(none)')
  for path, b in pairs(targets) do
    check(#vim.diagnostic.get(b) == 0 and #lenses(b) == 0, 'target buffer ' .. path .. ': no fsrb diagnostics, no lenses',
      string.format('%d diagnostics, %d lenses', #vim.diagnostic.get(b), #lenses(b)))
  end
  local list_all = actions(nil)
  local again, offered2 = titled(list_all, 'Apply all blocks')
  local revert = titled(list_all, 'Revert all blocks')
  check(#again == 0, '"Apply all blocks" no longer offered', offered2)
  check(#revert == 1, '"Revert all blocks" offered, once', offered2)
  log('     code actions (no filter): %s', offered2)
  local st
  done = 0
  fsrb.status(buf, function(err, result) st = { err = err, result = result } end)
  vim.wait(5000, function() return st ~= nil end, 20)
  local states = {}
  for _, b in ipairs((st and type(st.result) == 'table' and st.result.blocks) or {}) do
    table.insert(states, b.state)
  end
  check(st and st.err == nil and type(st.result) == 'table' and st.result.state == 'applied' and #states == nblocks
    and table.concat(states, ','):gsub('applied', '') == string.rep(',', nblocks - 1),
    'fsrb.status: the patch and every block "applied"', vim.inspect(st))

  -- 5b. The server sees the targets' unsaved text: a line typed at the top
  -- of src/app.py (not written) moves block #2's lens down one line.
  local function lens_for(n)
    for _, l in ipairs(lenses(buf)) do
      local title = l.command and l.command.title or ''
      if vim.startswith(title, '#' .. n .. ' ') then
        return title
      end
    end
    return ''
  end
  local before2 = lens_for(2)
  local line2 = tonumber(before2:match(':(%d+)$') or '')
  if line2 then
    vim.api.nvim_buf_set_lines(app, 0, 0, false, { '# an unsaved line' })
    local moved = string.format('#2 applied at src/app.py:%d', line2 + 1)
    check(vim.wait(5000, function() return lens_for(2) == moved end, 20), 'an unsaved line in src/app.py: "' .. moved .. '"', lens_for(2))
    vim.api.nvim_buf_set_lines(app, 0, 1, false, {})
    check(vim.wait(5000, function() return lens_for(2) == before2 end, 20), 'the line deleted again: "' .. before2 .. '"', lens_for(2))
  else
    check(false, 'block #2 has an "applied at src/app.py:N" lens', before2)
  end
  -- The same for README.md, which the edit loaded (no window ever showed
  -- it): the client still follows its changes.
  local readme_buf = targets['README.md']
  local before1 = lens_for(1)
  local line1 = tonumber(before1:match('README%.md:(%d+)$') or '')
  if readme_buf and line1 then
    vim.api.nvim_buf_set_lines(readme_buf, 0, 0, false, { 'an unsaved line' })
    local moved = string.format('#1 applied at README.md:%d', line1 + 1)
    check(vim.wait(5000, function() return lens_for(1) == moved end, 20), 'an unsaved line in README.md (loaded by the edit): "' .. moved .. '"', lens_for(1))
    vim.api.nvim_buf_set_lines(readme_buf, 0, 1, false, {})
    check(vim.wait(5000, function() return lens_for(1) == before1 end, 20), 'the line deleted again: "' .. before1 .. '"', lens_for(1))
  else
    check(false, 'block #1 has an "applied at README.md:N" lens', before1)
  end

  -- 6. fsrb.applyAll again changes nothing, on disk or in any buffer.
  vim.cmd('silent! wall') -- (src/app.py and README.md were touched in 5b)
  local disk_before, dirs_before = tree(ws)
  local bufs_before = buffers()
  local n_edits = #edits
  done, applied = 0, 0
  -- (through the old command, a deprecated alias that says so once)
  local said_alias = {}
  local notify_alias = vim.notify
  vim.notify = function(msg, level) table.insert(said_alias, { msg = msg, level = level }) end
  vim.cmd('FsrbApplyAll')
  vim.wait(10000, function() return done >= 1 end, 20)
  vim.wait(300, function() return applied > 0 end, 20)
  vim.notify = notify_alias
  local deprecations = vim.tbl_filter(function(m) return m.msg:find('deprecated', 1, true) ~= nil end, said_alias)
  check(#deprecations == 1 and deprecations[1].msg:find(':FsrbApplyAll is deprecated, use :Fsrb apply', 1, true) and deprecations[1].level == vim.log.levels.WARN
    and (fsrb.last_command or {}).command == 'fsrb.applyAll',
    ':FsrbApplyAll still runs fsrb.applyAll, and says once that it is deprecated for :Fsrb apply', vim.inspect(said_alias))
  last = fsrb.last_command or {}
  log('     fsrb.applyAll again: %s', last.err and ('error: ' .. tostring(last.err.message)) or vim.inspect(last.result):gsub('%s+', ' '))
  check(#edits == n_edits and applied == 0, 'a second fsrb.applyAll sends no edit', edits[#edits])
  vim.cmd('silent! wall')
  local disk_after, dirs_after = tree(ws)
  check(vim.deep_equal(disk_before, disk_after) and vim.deep_equal(dirs_before, dirs_after), 'a second fsrb.applyAll changes no byte on disk',
    vim.inspect(disk_after['src/app.py']))
  check(vim.deep_equal(bufs_before, buffers()), 'a second fsrb.applyAll changes no buffer')

  -- 7. :Fsrb revert puts every file back as it was, byte for byte.
  done, applied = 0, 0
  n_edits = #edits
  vim.cmd('Fsrb revert')
  vim.wait(10000, function() return done >= 1 and applied >= 1 end, 20)
  last = fsrb.last_command or {}
  check(applied == 1 and last.err == nil and type(last.result) == 'table' and last.result.applied == true,
    'fsrb.revertAll: the edit applied', last.err and last.err.message or vim.inspect(last.result))
  log('     the revert edit: %s', #edits > n_edits and edits[#edits] or '(none)')
  vim.cmd('silent! wall')
  same_tree('after revert', os.getenv('FSRB_BEFORE'), ws)
  t = ms()
  local ready = vim.wait(5000, function()
    return lens_titles():find('#1 applies at README.md:', 1, true) ~= nil and #titled(actions(nil), 'Apply all blocks') == 1
  end, 100)
  check(ready, string.format('after the revert the patch is ready again: "Apply all blocks" offered, "#1 applies at" (%d ms)', ms() - t), lens_titles())
  fsrb.apply_workspace_edit = orig_apply

  -- 7b. The same patch applied and reverted on disk by the fsrb CLI, with
  -- the targets in buffers (nvim/ondisk.lua).
  dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/ondisk.lua')({
    check = check, log = log, ws = ws, buf = buf, fsrb = fsrb, read = read, tree = tree, same_tree = same_tree,
    actions = actions, titled = titled, expected = expected, before = os.getenv('FSRB_BEFORE'),
  })

  -- 8. :Fsrb apply-block with no argument applies the block under the cursor.
  local f = io.open(ws .. '/second.fsrb', 'w')
  f:write('notes/a.txt\n<<<<<<< SEARCH\n=======\nfirst\n>>>>>>> REPLACE\n\nnotes/b.txt\n<<<<<<< SEARCH\n=======\nsecond\n>>>>>>> REPLACE\n')
  f:close()
  vim.cmd('edit second.fsrb')
  local buf2 = vim.api.nvim_get_current_buf()
  vim.wait(5000, function() return #require('fsrb').clients(buf2) > 0 end, 20)
  check(#fsrb.clients() == 1 and (fsrb.clients(buf2)[1] or {}).id == (fsrb.clients(buf)[1] or {}).id,
    'a second patch of the same root reuses the client', tostring(#fsrb.clients()))
  -- On the blank line between the blocks no block is under the cursor:
  -- the command says so and runs nothing (no guess by counting markers).
  vim.api.nvim_win_set_cursor(0, { 6, 0 })
  local warned, ran_before, notify_before = {}, require('fsrb').last_command, vim.notify
  vim.notify = function(msg, level) table.insert(warned, { msg = msg, level = level }) end
  vim.cmd('Fsrb apply-block')
  vim.notify = notify_before
  check(#warned == 1 and warned[1].msg:find('no block under the cursor', 1, true) and warned[1].level == vim.log.levels.WARN
    and require('fsrb').last_command == ran_before, ':Fsrb apply-block between two blocks says none is under the cursor and runs nothing',
    vim.inspect(warned))
  -- On block #2's header line (its path), block #2: the block's whole
  -- range, not the marker line before the cursor.
  vim.api.nvim_win_set_cursor(0, { 7, 0 })
  done, applied = 0, 0
  vim.cmd('Fsrb apply-block')
  vim.wait(10000, function() return done >= 1 and applied >= 1 end, 20)
  vim.cmd('silent! wall')
  last = require('fsrb').last_command or {}
  check(last.arguments and last.arguments[2] == 2, ':Fsrb apply-block picked block #2, its header under the cursor', vim.inspect(last.arguments))
  check(read(ws .. '/notes/b.txt') == 'second\n' and read(ws .. '/notes/a.txt') == nil, ':Fsrb apply-block created notes/b.txt only', tostring(read(ws .. '/notes/b.txt')))

  -- :Fsrb status says the patch is partly applied; <Plug>(fsrb-revert-block)
  -- (block under the cursor) takes notes/b.txt away again, and its folder.
  local said_status = {}
  local notify_was = vim.notify
  vim.notify = function(msg) table.insert(said_status, msg) end
  done = 0
  vim.cmd('Fsrb status')
  local partly = vim.wait(5000, function() return done >= 1 and #said_status > 0 end, 20)
  vim.notify = notify_was
  check(partly and said_status[1]:find('partly-applied', 1, true) and said_status[1]:find('#2 applied notes/b.txt', 1, true),
    ':Fsrb status: partly-applied, #2 applied', said_status[1])
  done, applied = 0, 0
  vim.api.nvim_win_set_cursor(0, { 10, 0 })
  vim.cmd('execute "normal \\<Plug>(fsrb-revert-block)"')
  vim.wait(10000, function() return done >= 1 and applied >= 1 end, 20)
  vim.cmd('silent! wall')
  last = fsrb.last_command or {}
  check(last.command == 'fsrb.revertBlock' and last.arguments and last.arguments[2] == 2 and last.err == nil,
    '<Plug>(fsrb-revert-block) reverted block #2 under the cursor', vim.inspect({ last.command, last.err, last.arguments }))
  check(not uv.fs_stat(ws .. '/notes/b.txt') and not uv.fs_stat(ws .. '/notes'), '<Plug>(fsrb-revert-block): notes/b.txt and notes/ gone',
    tostring(read(ws .. '/notes/b.txt')))

  -- 8a. Per-block review: block #2 skipped through its "Skip block" lens,
  -- #3 skipped and included again with :Fsrb skip / <Plug>(fsrb-include), then
  -- :Fsrb apply applies #1 and #3 as one edit and leaves #2's text alone.
  vim.fn.mkdir(ws .. '/review', 'p')
  f = io.open(ws .. '/review/x.txt', 'w')
  f:write('one\ntwo\nthree\n')
  f:close()
  f = io.open(ws .. '/third.fsrb', 'w')
  f:write('review/x.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n\n'
    .. 'review/x.txt\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n\n'
    .. 'review/z.txt\n<<<<<<< SEARCH\n=======\ncreated ✓\n>>>>>>> REPLACE\n')
  f:close()
  vim.cmd('edit third.fsrb')
  local buf3 = vim.api.nvim_get_current_buf()
  local function titles3()
    local t = {}
    for _, l in ipairs(lenses(buf3)) do
      table.insert(t, l.command and l.command.title or '?')
    end
    return table.concat(t, ' | ')
  end
  local function status3()
    local r
    fsrb.status(buf3, function(err, result) r = err and { summary = 'error: ' .. tostring(err.message) } or result end)
    vim.wait(5000, function() return r ~= nil end, 20)
    return r or {}
  end
  local lensed = vim.wait(10000, function()
    fsrb.refresh_lenses(buf3)
    return select(2, titles3():gsub('Skip block', '')) == 3
  end, 200)
  check(lensed, 'each block of third.fsrb has a "Skip block" lens', titles3())
  -- The lens is run as a user runs it: the cursor on block #2's marker
  -- line, vim.lsp.codelens.run(), "Skip block" picked in the menu.
  local select_was = vim.ui.select
  local offered_lenses = {}
  vim.ui.select = function(items, opts, on_choice)
    for _, item in ipairs(items) do
      local lens = item.lens or item
      local title = lens.command and lens.command.title or '?'
      table.insert(offered_lenses, title)
      if title == 'Skip block' then
        return on_choice(item)
      end
    end
    on_choice(nil)
  end
  vim.api.nvim_win_set_cursor(0, { 9, 0 }) -- block #2's <<<<<<< SEARCH
  vim.lsp.codelens.run()
  local skipped = vim.wait(5000, function() return (status3().summary or '') == 'ready: 2 of 3 blocks, #2 skipped' end, 100)
  vim.ui.select = select_was
  check(skipped, 'the "Skip block" lens on block #2: the patch reads "ready: 2 of 3 blocks, #2 skipped"',
    tostring(status3().summary) .. ' (lenses offered: ' .. table.concat(offered_lenses, ', ') .. ')')
  local said_skip = {}
  local notify_skip = vim.notify
  vim.notify = function(msg) table.insert(said_skip, msg) end
  done = 0
  vim.cmd('Fsrb skip 3')
  vim.wait(5000, function() return done >= 1 and #said_skip > 0 end, 20)
  done = 0
  vim.cmd('execute "normal 3\\<Plug>(fsrb-include)"')
  vim.wait(5000, function() return done >= 1 and #said_skip > 1 end, 20)
  vim.notify = notify_skip
  check(said_skip[1] == 'fsrb: ready: 1 of 3 blocks, #2, #3 skipped' and said_skip[2] == 'fsrb: ready: 2 of 3 blocks, #2 skipped',
    ':Fsrb skip 3 then 3<Plug>(fsrb-include) say the patch\'s state', vim.inspect(said_skip))
  local lens_skipped = vim.wait(5000, function()
    fsrb.refresh_lenses(buf3)
    return titles3():find('#2 skipped | Include block', 1, true) ~= nil
  end, 200)
  check(lens_skipped, 'block #2\'s lenses: "#2 skipped | Include block"', titles3())
  done, applied = 0, 0
  vim.cmd('Fsrb apply')
  vim.wait(10000, function() return done >= 1 and applied >= 1 end, 20)
  vim.cmd('silent! wall')
  last = fsrb.last_command or {}
  check(last.command == 'fsrb.applyAll' and last.err == nil and type(last.result) == 'table' and last.result.applied == true,
    ':Fsrb apply with #2 skipped: the edit applied', last.err and last.err.message or vim.inspect(last.result))
  check(read(ws .. '/review/x.txt') == 'ONE\ntwo\nthree\n', ':Fsrb apply left skipped block #2 out: review/x.txt byte for byte',
    string.format('%q', tostring(read(ws .. '/review/x.txt'))))
  check(read(ws .. '/review/z.txt') == 'created ✓\n', ':Fsrb apply created review/z.txt byte for byte',
    string.format('%q', tostring(read(ws .. '/review/z.txt'))))
  local said_applied = {}
  vim.notify = function(msg) table.insert(said_applied, msg) end
  done = 0
  vim.cmd('Fsrb status')
  vim.wait(5000, function() return done >= 1 and #said_applied > 0 end, 20)
  vim.notify = notify_skip
  check(said_applied[1] and vim.startswith(said_applied[1], 'fsrb: applied: 2 of 3 blocks, #2 skipped; ')
    and said_applied[1]:find('#2 skipped review/x.txt', 1, true) ~= nil,
    ':Fsrb status: "applied: 2 of 3 blocks, #2 skipped", #2 skipped', tostring(said_applied[1]))
  done, applied = 0, 0
  vim.cmd('Fsrb revert')
  vim.wait(10000, function() return done >= 1 and applied >= 1 end, 20)
  vim.cmd('silent! wall')
  check(read(ws .. '/review/x.txt') == 'one\ntwo\nthree\n' and not uv.fs_stat(ws .. '/review/z.txt'),
    ':Fsrb revert takes back the two applied blocks only', string.format('%q', tostring(read(ws .. '/review/x.txt'))))
  vim.fn.delete(ws .. '/review', 'rf')

  -- 8b. :Fsrb restart: a new client, attached to the patches and the files.
  local old = fsrb.clients(buf)[1]
  vim.cmd('Fsrb restart')
  local readme = vim.fn.bufnr(ws .. '/README.md')
  local restarted = vim.wait(5000, function()
    local c, r = fsrb.clients(buf)[1], fsrb.clients(readme)[1]
    return c ~= nil and old ~= nil and c.id ~= old.id and r ~= nil and r.id == c.id and #fsrb.clients() == 1
  end, 20)
  local state = {}
  for _, c in ipairs(fsrb.clients()) do
    table.insert(state, string.format('client %d (old %s): buffers %s', c.id, tostring(old and old.id), table.concat(vim.tbl_keys(c.attached_buffers or {}), ',')))
  end
  check(restarted, ':Fsrb restart: one new client, attached to the patch and to README.md',
    string.format('patch %d, README.md %d; %s', buf, readme, #state > 0 and table.concat(state, '; ') or 'no client'))

  -- 9. A server that cannot be found is reported clearly (and nothing starts).
  local notes = {}
  local notify = vim.notify
  vim.notify = function(msg, level)
    table.insert(notes, { msg = msg, level = level })
  end
  local saved = fsrb.config.cmd
  local bogus = { ws .. '/no/such/fsrb-lsp' }
  if mode == 'enable' then
    saved = vim.lsp.config.fsrb.cmd
    vim.lsp.config('fsrb', { cmd = bogus })
  else
    fsrb.config.cmd = bogus
  end
  fsrb._warned = false
  local id = fsrb.attach(buf)
  vim.notify = notify
  if mode == 'enable' then
    vim.lsp.config('fsrb', { cmd = saved })
  else
    fsrb.config.cmd = saved
  end
  local said = notes[1] and notes[1].msg or ''
  check(id == nil and said:find("cannot start the language server: '.-no/such/fsrb%-lsp' is not executable") ~= nil
    and notes[1].level == vim.log.levels.ERROR, 'a missing server is an error message naming it', said)

  -- 10. :checkhealth fsrb
  vim.cmd('checkhealth fsrb')
  local health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  check(health:find('OK', 1, true) and not health:find('ERROR', 1, true), ':checkhealth fsrb reports OK and no ERROR', health)
  local by = ({ setup = 'set up by setup()', g = 'set up by vim.g.fsrb', enable = "set up by vim.lsp.enable('fsrb')" })[mode or 'setup']
  check(health:find(by, 1, true) and not health:find('WARNING', 1, true), ':checkhealth fsrb: "' .. by .. '", no warning', health)
  if mode == 'enable' then
    check(health:find("vim.lsp.enable('fsrb') starts the client", 1, true) and health:find('lsp/fsrb.lua on the runtimepath', 1, true),
      ":checkhealth fsrb: lsp/fsrb.lua found, vim.lsp.enable('fsrb') starts the client", health)
  end

  -- 10b. :help fsrb documents the new ways in. The plugin ships doc/tags
  -- (no plugin manager runs :helptags on a plain package): built again
  -- here in a copy, it must be the shipped file byte for byte.
  local hdir = vim.fn.tempname()
  vim.fn.mkdir(hdir, 'p')
  vim.fn.writefile(vim.fn.readfile(plugin .. '/doc/fsrb.txt'), hdir .. '/fsrb.txt')
  vim.cmd('silent helptags ' .. vim.fn.fnameescape(hdir))
  check(read(hdir .. '/tags') == read(plugin .. '/doc/tags'), 'doc/tags is what :helptags makes of doc/fsrb.txt (regenerate: make helptags)')
  local tags = table.concat(vim.fn.readfile(hdir .. '/tags'), '\n')
  local missing = {}
  for _, tag in ipairs({ ':Fsrb', ':Fsrb-apply', ':Fsrb-revert-block', 'fsrb-lsp-enable', 'g:fsrb', 'fsrb-mappings', 'fsrb-preview', ':Fsrb-preview', 'fsrb-deprecated' }) do
    if not tags:find('\n' .. vim.pesc(tag) .. '\t') and not vim.startswith(tags, tag .. '\t') then
      table.insert(missing, tag)
    end
  end
  check(#missing == 0, ':help fsrb has the tags of :Fsrb, its subcommands, vim.lsp.enable, g:fsrb, the mappings, preview, the deprecated commands',
    table.concat(missing, ' '))

  -- :help fsrb works as installed, without a :helptags of the user's.
  local help_ok, help_err = pcall(vim.cmd, 'help fsrb')
  check(help_ok and vim.bo.buftype == 'help' and vim.fn.expand('%:t') == 'fsrb.txt', ':help fsrb opens fsrb.txt (the shipped doc/tags)', tostring(help_err))
  if help_ok then
    vim.cmd('helpclose')
  end

  -- 11. Nothing the plugin (or this test) calls is deprecated.
  local messages = vim.fn.execute('messages')
  check(not messages:lower():find('deprecated', 1, true), 'no deprecation warning in :messages', messages)
end

run.finish(main)
