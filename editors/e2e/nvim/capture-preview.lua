-- Drives a Neovim TUI (run by editors/e2e/nvim-capture.sh in tmux) to the
-- preview of the e2e patch, the way a user would: the "farewell" quick fix
-- on the ambiguous block, then :Fsrb preview, showing src/app.py's tab page
-- (FSRB_CAPTURE_FILE: another file). Timers and callbacks only, so that the
-- screen keeps redrawing. Writes "done" (or "error: ...")
-- into the file $FSRB_CAPTURE_FLAG for the script to poll.
local buf = vim.api.nvim_get_current_buf()
local lib = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'capture-lib.lua')

lib.fix_ambiguous(buf, function()
  vim.cmd('Fsrb preview')
  local preview = require('fsrb.preview')
  lib.poll(function() return preview.shown ~= nil end, 10000, function()
    local want = os.getenv('FSRB_CAPTURE_FILE') or 'src/app.py'
    for i, f in ipairs(preview.shown.files) do
      if f.path == want then
        vim.api.nvim_set_current_tabpage(preview.shown.tabs[i])
      end
    end
    vim.cmd('echo ""')
    lib.flag('done')
  end, 'the preview')
end)
