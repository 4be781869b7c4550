-- Drives a Neovim TUI (run by editors/e2e/nvim-capture.sh in tmux) through
-- answers as chat tools write them (fixture/answers), in the workspace it
-- starts in (holding src/app.py and src/x.py), by $FSRB_CAPTURE_CASE:
--   lazy    codecompanion's lazy block streams into a codecompanion-like
--           buffer beside src/app.py: it stops inside the code block and
--           writes "mid" into $FSRB_CAPTURE_FLAG; once $FSRB_CAPTURE_FLAG.go
--           exists it streams the rest and writes "done" when the lens says
--           where the block applies; once $FSRB_CAPTURE_FLAG.go2 exists it
--           runs :Fsrb apply and :wall and writes "applied" when the lens
--           says so.
--   ranges  CopilotChat's two line ranges stream into a copilot-chat
--           buffer beside src/x.py, then :Fsrb apply and :wall: "applied"
--           once both lenses say so.
-- Timers and callbacks only, so that the screen keeps redrawing.
local here = debug.getinfo(1, 'S').source:sub(2):match('(.*/)')
local lib = dofile(here .. 'capture-lib.lua')
local fixture = here .. '../fixture/answers/'
local case = os.getenv('FSRB_CAPTURE_CASE') or 'lazy'
local flag = os.getenv('FSRB_CAPTURE_FLAG')

local answer = table.concat(vim.fn.readfile(fixture .. case .. '.md', 'b'), '\n') .. '\n'
local target = case == 'lazy' and 'src/app.py' or 'src/x.py'

vim.cmd('edit ' .. target)
local b
if case == 'lazy' then
  b = lib.chat_buffer('[CodeCompanion] %d', { '## Me', '', 'Strip the name in greet, and add a farewell.', '', '## CodeCompanion (Copilot)', '', '' }, 'codecompanion')
else
  b = lib.chat_buffer('copilot-chat', { '# User', 'Use math.pi in both.', '', '# Copilot', '' }, 'copilot-chat')
end

local function go(suffix, next_step)
  lib.poll(function() return vim.fn.filereadable(flag .. suffix) == 1 end, 30000, next_step, 'the go-ahead')
end

-- :Fsrb apply, :wall, and "applied" once every lens says so.
local function apply(n)
  local edited = false
  vim.api.nvim_create_autocmd('User', { pattern = 'FsrbEditApplied', once = true, callback = function() edited = true end })
  require('fsrb').apply_all(b)
  lib.poll(function() return edited end, 10000, function()
    vim.cmd('silent wall')
    lib.poll(function()
      local t = lib.lens_titles(b)
      local _, count = t:gsub('applied at', '')
      return count == n and t:find('Revert all', 1, true) ~= nil
    end, 10000, function()
      vim.api.nvim_win_set_cursor(0, { 1, 0 })
      vim.cmd('echo ""')
      lib.flag('applied')
    end, 'the "applied" lenses')
  end, 'the applied edit')
end

if case == 'lazy' then
  -- Cut inside the block, after greet's new first line.
  local cut = answer:find('    message', answer:find('name.strip()', 1, true), true) - 1
  lib.stream(b, answer, 1, cut, function()
    lib.poll(function() return lib.lens_titles(b):find('#1 incomplete', 1, true) ~= nil end, 10000, function()
      vim.cmd('echo ""')
      lib.flag('mid')
      go('.go', function()
        lib.stream(b, answer, cut + 1, #answer, function()
          lib.poll(function() return lib.lens_titles(b):find('#1 applies', 1, true) ~= nil end, 10000, function()
            vim.cmd('echo ""')
            lib.flag('done')
            go('.go2', function() apply(1) end)
          end, 'the lens of the block')
        end)
      end)
    end, '"#1 incomplete"')
  end)
else
  lib.stream(b, answer, 1, #answer, function()
    lib.poll(function() return lib.lens_titles(b):find('#2 applies', 1, true) ~= nil end, 10000, function()
      apply(2)
    end, 'the lenses of both ranges')
  end)
end
