-- Drives a Neovim TUI (run by editors/e2e/nvim-capture.sh in tmux) to the
-- applied state of the e2e patch, the way a user would: the "farewell" quick
-- fix on the ambiguous block, :Fsrb apply, :wall. Timers and callbacks
-- only, so that the screen keeps redrawing. Writes "done" (or "error: ...")
-- into the file $FSRB_CAPTURE_FLAG for the script to poll.
local buf = vim.api.nvim_get_current_buf()
local fsrb = require('fsrb')

local function flag(text)
  vim.fn.writefile({ text }, os.getenv('FSRB_CAPTURE_FLAG'))
end

local function fail(msg)
  flag('error: ' .. msg)
end

local function poll(cond, timeout, next_step, what)
  local waited, finished = 0, false
  local timer = (vim.uv or vim.loop).new_timer()
  local function finish(fn)
    finished = true
    timer:stop()
    timer:close()
    fn()
  end
  timer:start(50, 50, vim.schedule_wrap(function()
    if finished then
      return -- a tick queued before the timer stopped
    end
    waited = waited + 50
    if cond() then
      finish(next_step)
    elseif waited > timeout then
      finish(function() fail('timed out waiting for ' .. what) end)
    end
  end))
end

local function ambiguous()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    if code == 'ambiguous' then
      return d
    end
  end
end

local function applied()
  local titles = {}
  local items = vim.fn.has('nvim-0.12') == 1 and vim.lsp.codelens.get({ bufnr = buf }) or vim.lsp.codelens.get(buf)
  for _, item in ipairs(items or {}) do
    local lens = item.lens or item
    table.insert(titles, lens.command and lens.command.title or '')
  end
  local s = table.concat(titles, '\n')
  return s:find('#1 applied', 1, true) ~= nil and not s:find('applies at', 1, true)
end

poll(function() return ambiguous() ~= nil end, 10000, function()
  local d = ambiguous()
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, 0 })
  vim.lsp.buf.code_action({
    context = { diagnostics = { d.user_data and d.user_data.lsp or {} }, only = { 'quickfix' } },
    filter = function(a) return a.title:find('farewell', 1, true) ~= nil end,
    apply = true,
  })
  poll(function() return ambiguous() == nil end, 10000, function()
    local edited = false
    vim.api.nvim_create_autocmd('User', { pattern = 'FsrbEditApplied', once = true, callback = function() edited = true end })
    fsrb.apply_all(buf)
    poll(function() return edited end, 10000, function()
      vim.cmd('silent wall')
      poll(applied, 10000, function()
        vim.api.nvim_win_set_cursor(0, { 1, 0 })
        vim.cmd('echo ""')
        flag('done')
      end, 'the "#N applied" lenses')
    end, 'the applied edit')
  end, 'the quick fix')
end, 'the diagnostics')
