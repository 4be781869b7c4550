-- Drives a Neovim TUI (run by editors/e2e/nvim-capture.sh in tmux) to the
-- applied state of the e2e patch, the way a user would: the "farewell" quick
-- fix on the ambiguous block, :Fsrb apply, :wall. Timers and callbacks
-- only, so that the screen keeps redrawing. Writes "done" (or "error: ...")
-- into the file $FSRB_CAPTURE_FLAG for the script to poll.
local buf = vim.api.nvim_get_current_buf()
local fsrb = require('fsrb')
local lib = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'capture-lib.lua')

local function applied()
  local s = lib.titles(buf)
  return s:find('#1 applied', 1, true) ~= nil and not s:find('applies at', 1, true)
end

lib.fix_ambiguous(buf, function()
  local edited = false
  vim.api.nvim_create_autocmd('User', { pattern = 'FsrbEditApplied', once = true, callback = function() edited = true end })
  fsrb.apply_all(buf)
  lib.poll(function() return edited end, 10000, function()
    vim.cmd('silent wall')
    lib.poll(applied, 10000, function()
      vim.api.nvim_win_set_cursor(0, { 1, 0 })
      vim.cmd('echo ""')
      lib.flag('done')
    end, 'the "#N applied" lenses')
  end, 'the applied edit')
end)
