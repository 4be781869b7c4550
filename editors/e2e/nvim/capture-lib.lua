-- What the tmux captures (capture-applied.lua, capture-preview.lua and the
-- others) share:
-- reporting to nvim-capture.sh through FSRB_CAPTURE_FLAG, polling with a
-- timer (so that the screen keeps redrawing, which vim.wait would not),
-- and the "farewell" quick fix of the e2e patch's ambiguous block, as a
-- user applies it.
local M = {}

-- The titles of a buffer's lenses, joined by " | ", as the checks read
-- them (check-lib.lua).
M.titles = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'check-lib.lua').titles

function M.flag(text)
  vim.fn.writefile({ text }, os.getenv('FSRB_CAPTURE_FLAG'))
end

function M.fail(msg)
  M.flag('error: ' .. msg)
end

-- poll runs next_step once cond() holds, checking every 50 ms; after
-- timeout ms it reports what it was waiting for instead.
function M.poll(cond, timeout, next_step, what)
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
      finish(function() M.fail('timed out waiting for ' .. what) end)
    end
  end))
end

-- ambiguous is the buffer's "ambiguous" diagnostic, or nil.
function M.ambiguous(buf)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    if code == 'ambiguous' then
      return d
    end
  end
end

-- fix_ambiguous waits for the ambiguous block, applies its "farewell"
-- quick fix (0.7, whose code_action cannot pick one: the same lines typed
-- into the patch), waits for the diagnostic to go and runs next_step.
function M.fix_ambiguous(buf, next_step)
  M.poll(function() return M.ambiguous(buf) ~= nil end, 10000, function()
    local d = M.ambiguous(buf)
    vim.api.nvim_win_set_cursor(0, { d.lnum + 1, 0 })
    if vim.fn.has('nvim-0.8') == 1 then
      vim.lsp.buf.code_action({
        context = { diagnostics = { d.user_data and d.user_data.lsp or {} }, only = { 'quickfix' } },
        filter = function(a) return a.title:find('farewell', 1, true) ~= nil end,
        apply = true,
      })
    else
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
      -- Below the separator first, so that s stays valid.
      vim.api.nvim_buf_set_lines(buf, r, r, false, { 'def farewell(name):' })
      vim.api.nvim_buf_set_lines(buf, s, s, false, { 'def farewell(name):' })
    end
    M.poll(function() return M.ambiguous(buf) == nil end, 10000, next_step, 'the quick fix')
  end, 'the diagnostics')
end


-- The chat captures (capture-chat.lua, capture-answers.lua) share the
-- chat buffer, made in a window right of the file shown, and the stream
-- of an answer into it.

-- chat_buffer opens a scratch buffer in a new window at the right, gives
-- it the name (a %d in it is the buffer's number), lines and filetype the
-- chat plugin sets, and returns it.
function M.chat_buffer(name, lines, filetype)
  vim.cmd('botright vnew')
  local b = vim.api.nvim_get_current_buf()
  vim.bo[b].buftype = 'nofile'
  vim.bo[b].bufhidden = 'hide'
  vim.bo[b].swapfile = false
  vim.api.nvim_buf_set_name(b, string.format(name, b))
  vim.api.nvim_buf_set_lines(b, 0, -1, false, lines)
  vim.bo[b].filetype = filetype
  return b
end

-- lens_titles asks for buf's lenses where Neovim does not (before 0.12)
-- and returns their titles.
function M.lens_titles(buf)
  if vim.fn.has('nvim-0.12') == 0 then
    require('fsrb').refresh_lenses(buf)
  end
  return M.titles(buf)
end

-- stream appends text[from..to] at the end of buf in chunks of 24 bytes
-- every 40 ms, the cursor following, and then runs next_step.
function M.stream(buf, text, from, to, next_step)
  if from > to then
    return next_step()
  end
  local chunk = text:sub(from, math.min(from + 23, to))
  local last = vim.api.nvim_buf_line_count(buf) - 1
  local col = #vim.api.nvim_buf_get_lines(buf, last, last + 1, false)[1]
  vim.api.nvim_buf_set_text(buf, last, col, last, col, vim.split(chunk, '\n', { plain = true }))
  vim.api.nvim_win_set_cursor(0, { vim.api.nvim_buf_line_count(buf), 0 })
  vim.defer_fn(function() M.stream(buf, text, from + #chunk, to, next_step) end, 40)
end

return M
