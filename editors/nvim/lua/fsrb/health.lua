-- :checkhealth fsrb
-- Neovim 0.7 reads lua/fsrb/health.lua through `health#…` report functions,
-- 0.8 through require('health'), 0.9 vim.health.report_*, 0.10+ vim.health.*.
local M = {}

local function reporter()
  local h = vim.health
  if h and h.start then
    return h.start, h.ok, h.warn, h.error, h.info
  end
  if h and h.report_start then
    return h.report_start, h.report_ok, h.report_warn, h.report_error, h.report_info
  end
  local ok, legacy = pcall(require, 'health')
  if ok and type(legacy) == 'table' and legacy.report_start then
    return legacy.report_start, legacy.report_ok, legacy.report_warn, legacy.report_error, legacy.report_info
  end
  local fn = vim.fn
  return function(s) fn['health#report_start'](s) end,
    function(s) fn['health#report_ok'](s) end,
    function(s, a) fn['health#report_warn'](s, a or {}) end,
    function(s, a) fn['health#report_error'](s, a or {}) end,
    function(s) fn['health#report_info'](s) end
end

function M.check()
  local start, ok, warn, error, info = reporter()
  local fsrb = require('fsrb')
  start('fsrb')

  local v = vim.version()
  local version = string.format('%d.%d.%d', v.major, v.minor, v.patch)
  if vim.fn.has('nvim-0.7') == 1 then
    ok('Neovim ' .. version .. (vim.lsp.start and ' (vim.lsp.start)' or ' (start_client fallback for 0.7)'))
  else
    error('Neovim ' .. version .. ' is too old: fsrb needs 0.7 or newer')
  end

  if fsrb._did_setup then
    ok("require('fsrb').setup{} has run; filetypes: " .. table.concat(fsrb.config.filetypes, ', ') .. (fsrb.config.markdown and ', markdown' or ''))
  else
    warn("require('fsrb').setup{} has not run: nothing starts the server", { "add require('fsrb').setup{} to your config" })
  end

  local cmd = fsrb.config.cmd or {}
  local exe = cmd[1] and vim.fn.exepath(cmd[1]) or ''
  if exe == '' then
    error(string.format("the server command '%s' is not executable", tostring(cmd[1])), {
      'install it: go install github.com/fsrb/fsrb/cmd/fsrb-lsp@latest (and put $(go env GOPATH)/bin on $PATH)',
      "or point the plugin at it: require('fsrb').setup{ cmd = { '/path/to/fsrb-lsp' } }",
    })
  else
    local out = vim.fn.system({ exe, '--version' })
    if vim.v.shell_error == 0 then
      ok(string.format('server: %s (%s)', exe, vim.trim(out)))
    else
      warn(string.format('server: %s does not answer --version: %s', exe, vim.trim(out)))
    end
  end

  local clients = fsrb.clients()
  if #clients == 0 then
    info('no fsrb client is running (open a *.fsrb file)')
  end
  for _, c in ipairs(clients) do
    local n = vim.tbl_count(c.attached_buffers or {})
    ok(string.format('client %d running, root %s, %d buffer(s)', c.id, tostring(c.config.root_dir), n))
  end

  if vim.fn.has('nvim-0.8') == 0 then
    info('Neovim 0.7: the plugin creates the folders of new files before applying an edit, and drops the extra empty last line 0.7 leaves in a new file')
  end
  info('LSP log: ' .. fsrb.log_path())
end

return M
