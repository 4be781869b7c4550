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
local b = lib.chat_buffer('[CodeCompanion] %d', { '## Me', '', 'Charge by price.', '', '## CodeCompanion (Copilot)', '', '' }, 'codecompanion')

-- Cut inside the second block, right after its divider.
local second = answer:find('=======\n', answer:find('docs/notes.md', 1, true), true)
local cut = second + #'=======\n' - 1

lib.stream(b, answer, 1, cut, function()
  lib.poll(function() return lib.lens_titles(b):find('#2 incomplete', 1, true) ~= nil end, 10000, function()
    vim.cmd('echo ""')
    lib.flag('mid')
    lib.poll(function() return vim.fn.filereadable(os.getenv('FSRB_CAPTURE_FLAG') .. '.go') == 1 end, 30000, function()
      lib.stream(b, answer, cut + 1, #answer, function()
        lib.poll(function() return lib.lens_titles(b):find('#2 applies', 1, true) ~= nil end, 10000, function()
          vim.cmd('echo ""')
          lib.flag('done')
        end, 'the lens of the second block')
      end)
    end, 'the go-ahead')
  end, '"#2 incomplete"')
end)
