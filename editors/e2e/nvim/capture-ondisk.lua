-- Drives a Neovim TUI (run by editors/e2e/nvim-capture.sh in tmux) through
-- the sequence that once left stale buffers: the "farewell" quick fix,
-- :Fsrb apply, :wall, :Fsrb revert, :wall (the targets now in hidden
-- buffers), then the same patch applied on disk by the fsrb command line
-- ($FSRB_CLI), then :Fsrb status. Timers and callbacks only, so that the
-- screen keeps redrawing. Writes "done" (or "error: ...") into the file
-- $FSRB_CAPTURE_FLAG for the script to poll.
local buf = vim.api.nvim_get_current_buf()
-- :Fsrb status says each block's state: two lines at 110 columns, which
-- would stop at a hit-enter prompt.
vim.o.cmdheight = 2
local fsrb = require('fsrb')
local lib = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'capture-lib.lua')

local function applied()
  local s = lib.titles(buf)
  return s:find('#1 applied', 1, true) ~= nil and not s:find('applies at', 1, true)
end
local function ready()
  return lib.titles(buf):find('#1 applies at', 1, true) ~= nil
end

-- run(command, then): runs a fsrb command that sends an edit, :wall once
-- the edit is in the buffers, then `then`.
local function run(command, after, what)
  local edited = false
  vim.api.nvim_create_autocmd('User', { pattern = 'FsrbEditApplied', once = true, callback = function() edited = true end })
  command(buf)
  lib.poll(function() return edited end, 10000, function()
    vim.cmd('silent wall')
    after()
  end, what)
end

lib.fix_ambiguous(buf, function()
  run(fsrb.apply_all, function()
    lib.poll(applied, 10000, function()
      run(fsrb.revert_all, function()
        lib.poll(ready, 10000, function()
          local out = vim.fn.system({ os.getenv('FSRB_CLI'), 'change.fsrb' })
          if vim.v.shell_error ~= 0 then
            return lib.fail('fsrb change.fsrb: ' .. out)
          end
          vim.cmd('Fsrb status')
          lib.poll(applied, 10000, function()
            vim.api.nvim_win_set_cursor(0, { 1, 0 })
            lib.flag('done')
          end, 'the "#N applied" lenses after the CLI')
        end, 'the "#1 applies at" lens after the revert')
      end, 'the revert edit')
    end, 'the "#N applied" lenses')
  end, 'the applied edit')
end)
