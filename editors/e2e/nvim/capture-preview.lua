-- Drives a Neovim TUI (run by editors/e2e/nvim-capture.sh in tmux) to the
-- preview of the e2e patch, the way a user would: the "farewell" quick fix
-- on the ambiguous block, then :Fsrb preview, showing src/app.py's tab page
-- (FSRB_CAPTURE_FILE: another file). Timers and callbacks only, so that the
-- screen keeps redrawing. Writes "done" (or "error: ...")
-- into the file $FSRB_CAPTURE_FLAG for the script to poll.
local buf = vim.api.nvim_get_current_buf()

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

poll(function() return ambiguous() ~= nil end, 10000, function()
  local d = ambiguous()
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, 0 })
  if vim.fn.has('nvim-0.8') == 1 then
    vim.lsp.buf.code_action({
      context = { diagnostics = { d.user_data and d.user_data.lsp or {} }, only = { 'quickfix' } },
      filter = function(a) return a.title:find('farewell', 1, true) ~= nil end,
      apply = true,
    })
  else
    -- 0.7 (NVIM_APPLIED=nvim): what the fix does, typed into the patch.
    local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    local s, r
    for i = d.lnum + 1, #lines do
      if s == nil and lines[i]:match('^<<<<<<< SEARCH') then
        s = i
      elseif s and lines[i]:match('^=======') then
        r = i
        break
      end
    end
    vim.api.nvim_buf_set_lines(buf, r, r, false, { 'def farewell(name):' })
    vim.api.nvim_buf_set_lines(buf, s, s, false, { 'def farewell(name):' })
  end
  poll(function() return ambiguous() == nil end, 10000, function()
    vim.cmd('Fsrb preview')
    local preview = require('fsrb.preview')
    poll(function() return preview.shown ~= nil end, 10000, function()
      local want = os.getenv('FSRB_CAPTURE_FILE') or 'src/app.py'
      for i, f in ipairs(preview.shown.files) do
        if f.path == want then
          vim.api.nvim_set_current_tabpage(preview.shown.tabs[i])
        end
      end
      vim.cmd('echo ""')
      flag('done')
    end, 'the preview')
  end, 'the quick fix')
end, 'the diagnostics')
