-- :Fsrb preview: the whole change of a patch, as Neovim shows diffs, before
-- anything is applied. The server's `fsrb.preview` command answers, per file
-- the patch changes, its URI, path, operation ('modify', 'create' or
-- 'delete') and its current and proposed text.
--
-- Layout: one tab page per file. Neovim's diff mode compares every window
-- of a tab page that has 'diff' set, so two files cannot be diffed side by
-- side in one tab page (README.md's text would be compared with
-- src/app.py's); a tab page per file also gives each diff the whole height
-- of the terminal. Each tab page holds:
--   - a one-line header: "fsrb preview: N files — :Fsrb apply to apply all,
--     :tabclose to close", its status line naming the file ("file 2 of 4:
--     src/app.py (modified)");
--   - below it, side by side, the current text (left, `fsrb://current/PATH`)
--     and the proposed text (right, `fsrb://proposed/PATH`), read-only
--     scratch buffers in diff mode; a created file is diffed against an
--     empty left side, a deleted one against an empty right side.
-- `gt`/`gT` go from file to file. The tab pages are one preview: closing
-- one (:tabclose, or `q` in any of its windows) closes them all, and changes
-- nothing. `:Fsrb apply` in the preview asks the server for the preview
-- again, applies the patch if the change is still the one shown (all or
-- nothing: the server validates again) and closes the preview; when the
-- change differs (the patch or a file was edited meanwhile) it applies
-- nothing and shows the change as it is now.
local M = {}

local api = vim.api
local config = require('fsrb.config')
local actions = require('fsrb.actions')

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

local function say(msg, level)
  if not vim.startswith(msg, 'fsrb:') then
    msg = 'fsrb: ' .. msg
  end
  vim.notify(msg, level or vim.log.levels.INFO)
end

-- The preview on screen (one at a time), or nil:
--   { patch = bufnr, from = tabpage, tabs = { tabpage, ... },
--     bufs = { [bufnr] = true }, files = <the server's answer>,
--     wins = { { header = win, current = win, proposed = win }, ... } }
M.shown = nil

local group = api.nvim_create_augroup('fsrb_preview', { clear = true })

-- A text as buffer lines: the final line break ends the last line (no
-- empty line after it); "\r\n" is shown as Neovim shows a 'fileformat'
-- dos buffer.
local function lines_of(text)
  if type(text) ~= 'string' or text == '' then
    return {}
  end
  local lines = vim.split(text, '\n', { plain = true })
  if lines[#lines] == '' then
    table.remove(lines)
  end
  for i, line in ipairs(lines) do
    lines[i] = (line:gsub('\r$', ''))
  end
  return lines
end
M._lines_of = lines_of

-- The syntax of path's filetype (highlighting only: no FileType event, so
-- no ftplugin and no language server attaches to the preview's buffers).
local function syntax_of(path)
  if has('0.8') then
    local ok, ft = pcall(vim.filetype.match, { filename = path })
    return ok and type(ft) == 'string' and ft or nil
  end
  -- 0.7: the :filetype autocommands on a throwaway buffer.
  local b = api.nvim_create_buf(false, true)
  local ft = ''
  api.nvim_buf_call(b, function()
    local ei = vim.o.eventignore
    vim.o.eventignore = 'FileType,Syntax'
    pcall(vim.cmd, 'silent doautocmd filetypedetect BufRead ' .. vim.fn.fnameescape(path))
    ft = vim.bo.filetype
    vim.o.eventignore = ei
  end)
  pcall(api.nvim_buf_delete, b, { force = true })
  return ft ~= '' and ft or nil
end

-- Sets window options of win as :setlocal does (global-local ones such as
-- 'statusline' included).
local function setlocal(win, opts)
  api.nvim_win_call(win, function()
    for k, v in pairs(opts) do
      vim.opt_local[k] = v
    end
  end)
end

-- A status line showing text as is.
local function stl(text)
  return (text:gsub('%%', '%%%%'))
end

-- A read-only scratch buffer of the preview p, wiped once no window shows
-- it.
local function scratch(p, name, lines, syntax)
  local b = api.nvim_create_buf(false, true)
  vim.bo[b].bufhidden = 'wipe'
  vim.bo[b].swapfile = false
  api.nvim_buf_set_lines(b, 0, -1, false, lines)
  vim.bo[b].modifiable = false
  vim.bo[b].modified = false
  if name and not pcall(api.nvim_buf_set_name, b, name) then
    pcall(api.nvim_buf_set_name, b, name .. ' (' .. b .. ')')
  end
  if syntax then
    vim.bo[b].syntax = syntax
  end
  vim.keymap.set('n', 'q', function()
    M.close()
  end, { buffer = b, nowait = true, silent = true, desc = 'fsrb: close the preview (applies nothing)' })
  p.bufs[b] = true
  return b
end

local describe = {
  modify = { left = '%s', right = '%s (modified)', header = 'modified' },
  create = { left = '(no file yet)', right = '%s (new file)', header = 'created' },
  delete = { left = '%s', right = '(deleted)', header = 'deleted' },
}

--- The preview the current tab page (or bufnr) belongs to, or nil.
function M.current(bufnr)
  local p = M.shown
  if not p then
    return nil
  end
  if bufnr and bufnr ~= 0 then
    return p.bufs[bufnr] and p or nil
  end
  local tab = api.nvim_get_current_tabpage()
  for _, t in ipairs(p.tabs) do
    if t == tab then
      return p
    end
  end
  return nil
end

-- While a preview is shown and the user has no 'tabline' of their own, the
-- tab pages are labelled by the preview ("2/4 src/app.py") rather than by
-- the shortened buffer name ("f//p/s/app.py"); other tab pages as Neovim
-- labels them (the file's name, "+" when modified).
local our_tabline = "%!v:lua.require'fsrb.preview'.tabline()"
local tab_note = { create = ' (new)', delete = ' (deleted)' }

function M.tabline()
  local p = M.shown
  local index = {}
  for k, t in ipairs(p and p.tabs or {}) do
    index[t] = k
  end
  local cur = api.nvim_get_current_tabpage()
  local out = {}
  for i, t in ipairs(api.nvim_list_tabpages()) do
    local k, label = index[t], nil
    if k then
      local f = p.files[k]
      label = string.format('%d/%d %s%s', k, #p.files, tostring(f.path), tab_note[f.operation] or '')
    else
      local b = api.nvim_win_get_buf(api.nvim_tabpage_get_win(t))
      local name = api.nvim_buf_get_name(b)
      label = name == '' and '[No Name]' or vim.fn.fnamemodify(name, ':t')
      if vim.bo[b].modified then
        label = label .. ' +'
      end
    end
    table.insert(out, (t == cur and '%#TabLineSel#' or '%#TabLine#') .. '%' .. i .. 'T ' .. stl(label) .. ' ')
  end
  table.insert(out, '%#TabLineFill#%T')
  return table.concat(out)
end

local function header_text(p)
  local n = #p.files
  return string.format(' fsrb preview: %d file%s — :Fsrb apply to apply all, :tabclose to close  (gt/gT: next/previous file)',
    n, n == 1 and '' or 's')
end

-- One tab page for file number i of p.
local function file_tab(p, i, header)
  local f = p.files[i]
  local op = describe[f.operation] and f.operation or 'modify'
  local path = f.path
  if type(path) ~= 'string' or path == '' then
    path = vim.fn.fnamemodify(vim.uri_to_fname(f.uri), ':~:.')
  end
  local syntax = syntax_of(path)
  local left = scratch(p, 'fsrb://current/' .. path, op == 'create' and {} or lines_of(f.current), syntax)
  local right = scratch(p, 'fsrb://proposed/' .. path, op == 'delete' and {} or lines_of(f.proposed), syntax)

  vim.cmd('tabnew')
  local tab = api.nvim_get_current_tabpage()
  local hwin = api.nvim_get_current_win()
  vim.bo.bufhidden = 'wipe' -- the empty buffer :tabnew made
  api.nvim_win_set_buf(hwin, header)
  vim.cmd('belowright split')
  local lwin = api.nvim_get_current_win()
  api.nvim_win_set_buf(lwin, left)
  vim.cmd('belowright vsplit')
  local rwin = api.nvim_get_current_win()
  api.nvim_win_set_buf(rwin, right)
  api.nvim_win_set_height(hwin, 1)

  local d = describe[op]
  setlocal(hwin, {
    winfixheight = true,
    number = false,
    relativenumber = false,
    signcolumn = 'no',
    foldcolumn = '0',
    cursorline = false,
    list = false,
    wrap = false,
    spell = false,
    colorcolumn = '',
    winhighlight = 'Normal:FsrbPreviewHeader,NormalNC:FsrbPreviewHeader',
    statusline = stl(string.format(' file %d of %d: %s (%s)', i, #p.files, path, d.header)),
  })
  setlocal(lwin, { statusline = stl(' current: ' .. string.format(d.left, path)) })
  setlocal(rwin, { statusline = stl(' proposed: ' .. string.format(d.right, path)) })
  for _, w in ipairs({ lwin, rwin }) do
    api.nvim_win_call(w, function()
      vim.cmd('diffthis')
    end)
  end
  -- The cursor on the proposed side, at the first change.
  api.nvim_win_call(rwin, function()
    vim.cmd('normal! gg')
    if vim.fn.diff_hlID(1, 1) == 0 then
      pcall(vim.cmd, 'normal! ]c')
    end
  end)
  api.nvim_set_current_win(rwin)
  table.insert(p.tabs, tab)
  table.insert(p.wins, { header = hwin, current = lwin, proposed = rwin })
end

--- Shows files (the answer of fsrb.preview for the patch in bufnr).
function M.show(patch, files)
  local from = api.nvim_get_current_tabpage()
  local old = M.shown
  if old then
    from = old.from
    M.close(old)
  end
  local p = { patch = patch, from = from, tabs = {}, bufs = {}, files = files, wins = {} }
  vim.cmd('highlight default link FsrbPreviewHeader Title')
  local header = scratch(p, nil, {}, nil)
  for i = 1, #files do
    file_tab(p, i, header)
  end
  vim.bo[header].modifiable = true
  api.nvim_buf_set_lines(header, 0, -1, false, { header_text(p) })
  vim.bo[header].modifiable = false
  M.shown = p
  if vim.o.tabline == '' then
    vim.o.tabline = our_tabline
  end
  api.nvim_set_current_tabpage(p.tabs[1])
  -- Closing one tab page of the preview closes the others.
  api.nvim_clear_autocmds({ group = group })
  api.nvim_create_autocmd('TabClosed', {
    group = group,
    callback = function()
      local q = M.shown
      if not q then
        return
      end
      -- Looked at once the tab page is gone (0.7 still finds it valid in
      -- its TabClosed).
      vim.schedule(function()
        if M.shown ~= q then
          return
        end
        for _, t in ipairs(q.tabs) do
          if not api.nvim_tabpage_is_valid(t) then
            return M.close(q)
          end
        end
      end)
    end,
    desc = 'fsrb: closing a tab page of the preview closes the preview',
  })
  pcall(api.nvim_exec_autocmds, 'User', { pattern = 'FsrbPreviewShown', modeline = false })
  return p
end

--- Closes the preview (default: the one shown); applies nothing.
function M.close(p)
  p = p or M.shown
  if not p then
    return
  end
  if M.shown == p then
    M.shown = nil
    api.nvim_clear_autocmds({ group = group })
    if vim.o.tabline == our_tabline then
      vim.o.tabline = ''
    end
  end
  local mine = {}
  for _, t in ipairs(p.tabs) do
    if api.nvim_tabpage_is_valid(t) then
      mine[t] = true
    end
  end
  -- A tab page to come back to: the one the preview was opened from, else
  -- any other, else a new one with the patch.
  local back = p.from
  if not (back and api.nvim_tabpage_is_valid(back) and not mine[back]) then
    back = nil
    for _, t in ipairs(api.nvim_list_tabpages()) do
      if not mine[t] then
        back = t
        break
      end
    end
  end
  if back then
    api.nvim_set_current_tabpage(back)
  else
    vim.cmd('tabnew')
    if api.nvim_buf_is_valid(p.patch) then
      vim.bo.bufhidden = 'wipe'
      api.nvim_win_set_buf(0, p.patch)
    end
  end
  for t in pairs(mine) do
    if api.nvim_tabpage_is_valid(t) then
      pcall(vim.cmd, 'tabclose ' .. api.nvim_tabpage_get_number(t))
    end
  end
  for b in pairs(p.bufs) do
    if api.nvim_buf_is_valid(b) then
      pcall(api.nvim_buf_delete, b, { force = true })
    end
  end
  pcall(api.nvim_exec_autocmds, 'User', { pattern = 'FsrbPreviewClosed', modeline = false })
end

local function failed(err)
  local msg = type(err) == 'table' and err.message or tostring(err)
  if tostring(msg):find('unknown command', 1, true) then
    say('this fsrb-lsp has no preview (it does not know the fsrb.preview command): update the server '
      .. '(go install github.com/fsrb/fsrb/cmd/fsrb-lsp@latest). :Fsrb apply still applies every block, all or nothing',
      vim.log.levels.ERROR)
  else
    say('no preview: ' .. tostring(msg), vim.log.levels.ERROR)
  end
end

local function files_of(result)
  if type(result) ~= 'table' or type(result.files) ~= 'table' then
    return nil
  end
  return result.files
end

--- :Fsrb preview in bufnr: a patch buffer, or a buffer of the preview
--- (shown again, as the change is now).
function M.open(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  local p = M.current(bufnr) or M.current()
  if p then
    bufnr = p.patch
  end
  if not api.nvim_buf_is_valid(bufnr) or not config.served(bufnr) then
    say('there is no patch in this buffer: run :Fsrb preview in a patch (*.fsrb) buffer', vim.log.levels.ERROR)
    return false
  end
  return actions.preview(bufnr, function(err, result)
    if err then
      return failed(err)
    end
    local files = files_of(result)
    if not files then
      say('no preview: the server answered ' .. vim.inspect(result), vim.log.levels.ERROR)
    elseif #files == 0 then
      -- The server says why ("every block of the patch is applied already",
      -- "the patch has 1 problem; every block must validate").
      local why = type(result.message) == 'string' and result.message ~= '' and result.message or 'no block is left to apply'
      say(why:find('^nothing') and why or ('nothing to preview: ' .. why), vim.log.levels.WARN)
    else
      M.show(bufnr, files)
    end
  end)
end

local function same(a, b)
  if #a ~= #b then
    return false
  end
  for i = 1, #a do
    for _, k in ipairs({ 'uri', 'operation', 'current', 'proposed' }) do
      if a[i][k] ~= b[i][k] then
        return false
      end
    end
  end
  return true
end

--- :Fsrb apply in the preview: applies the patch if the change is still
--- the one shown, then closes the preview; on_done(err, result) as for
--- require('fsrb').apply_all.
function M.apply(p, on_done)
  p = p or M.current()
  if not p then
    return false
  end
  if not api.nvim_buf_is_valid(p.patch) then
    say('the patch of this preview is no longer loaded: nothing applied', vim.log.levels.ERROR)
    return false
  end
  return actions.preview(p.patch, function(err, result)
    if err then
      return failed(err)
    end
    local files = files_of(result)
    if not files or #files == 0 then
      say('nothing applied: the patch has no block left to apply', vim.log.levels.WARN)
      M.close(p)
      return
    end
    if not same(p.files, files) then
      say('nothing applied: the change is no longer the one the preview showed (the patch or a file changed); '
        .. 'the preview now shows it as it is: :Fsrb apply again to apply it', vim.log.levels.WARN)
      M.show(p.patch, files)
      return
    end
    actions.apply_all(p.patch, function(err2, res)
      if not err2 and type(res) == 'table' and res.applied == true and M.shown == p then
        M.close(p)
      end
      if on_done then
        on_done(err2, res)
      end
    end)
  end)
end

return M
