-- Drives a Neovim TUI (run by editors/e2e/nvim-capture.sh in tmux) through
-- a chat answer streaming into a codecompanion-like buffer (a scratch
-- buffer named "[CodeCompanion] N", filetype codecompanion, the answer
-- appended at its end chunk by chunk) beside calc.py: it stops while the
-- second block is still arriving and writes "mid" into $FSRB_CAPTURE_FLAG;
-- once the file $FSRB_CAPTURE_FLAG.go exists it streams the rest and
-- writes "done" when both blocks' lenses say where they apply.
local here = debug.getinfo(1, 'S').source:sub(2):match('(.*/)')
local lib = dofile(here .. 'capture-lib.lua')
local fixture = here .. '../fixture/chat/'

for _, f in ipairs({ 'calc.py', 'docs/notes.md' }) do
  vim.fn.mkdir(vim.fn.fnamemodify(f, ':h'), 'p')
  vim.fn.writefile(vim.fn.readfile(fixture .. 'before/' .. f, 'b'), f, 'b')
end
local answer = table.concat(vim.fn.readfile(fixture .. 'answer.md', 'b'), '\n')

vim.cmd('edit calc.py')
vim.cmd('botright vnew')
local b = vim.api.nvim_get_current_buf()
vim.bo[b].buftype = 'nofile'
vim.bo[b].bufhidden = 'hide'
vim.bo[b].swapfile = false
vim.api.nvim_buf_set_name(b, string.format('[CodeCompanion] %d', b))
vim.api.nvim_buf_set_lines(b, 0, -1, false, { '## Me', '', 'Charge by price.', '', '## CodeCompanion (Copilot)', '', '' })
vim.bo[b].filetype = 'codecompanion'

-- Cut inside the second block, right after its divider.
local second = answer:find('=======\n', answer:find('docs/notes.md', 1, true), true)
local cut = second + #'=======\n' - 1

local function lens_titles()
  if vim.fn.has('nvim-0.12') == 0 then
    require('fsrb').refresh_lenses(b)
  end
  return lib.titles(b)
end

-- stream writes answer[from..to] in chunks of 24 bytes every 40 ms.
local function stream(from, to, next_step)
  if from > to then
    return next_step()
  end
  local chunk = answer:sub(from, math.min(from + 23, to))
  local last = vim.api.nvim_buf_line_count(b) - 1
  local col = #vim.api.nvim_buf_get_lines(b, last, last + 1, false)[1]
  vim.api.nvim_buf_set_text(b, last, col, last, col, vim.split(chunk, '\n', { plain = true }))
  vim.api.nvim_win_set_cursor(0, { vim.api.nvim_buf_line_count(b), 0 })
  vim.defer_fn(function() stream(from + #chunk, to, next_step) end, 40)
end

stream(1, cut, function()
  lib.poll(function() return lens_titles():find('#2 incomplete', 1, true) ~= nil end, 10000, function()
    vim.cmd('echo ""')
    lib.flag('mid')
    lib.poll(function() return vim.fn.filereadable(os.getenv('FSRB_CAPTURE_FLAG') .. '.go') == 1 end, 30000, function()
      stream(cut + 1, #answer, function()
        lib.poll(function() return lens_titles():find('#2 applies', 1, true) ~= nil end, 10000, function()
          vim.cmd('echo ""')
          lib.flag('done')
        end, 'the lens of the second block')
      end)
    end, 'the go-ahead')
  end, '"#2 incomplete"')
end)
