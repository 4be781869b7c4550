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
  local config = require('fsrb.config')
  local client = require('fsrb.client')
  local opt = config.options
  start('fsrb')

  local v = vim.version()
  local version = string.format('%d.%d.%d', v.major, v.minor, v.patch)
  if vim.fn.has('nvim-0.7') == 1 then
    ok('Neovim ' .. version .. (vim.lsp.start and ' (vim.lsp.start)' or ' (start_client fallback for 0.7)'))
  else
    error('Neovim ' .. version .. ' is too old: fsrb needs 0.7 or newer')
  end

  -- How the plugin was set up (:help fsrb-setup).
  local how = config.setup_by
  if how then
    ok('set up by ' .. how .. '; filetypes: ' .. table.concat(opt.filetypes, ', ') .. (opt.markdown and ', markdown' or ''))
  else
    info('not set up yet: the first patch buffer does it, with the options of vim.g.fsrb (setup() is optional)')
  end
  if vim.fn.has('nvim-0.11') == 1 then
    local files = vim.api.nvim_get_runtime_file('lsp/fsrb.lua', true)
    if #files > 0 then
      ok('lsp/fsrb.lua on the runtimepath: ' .. files[1])
    else
      warn('lsp/fsrb.lua is not on the runtimepath: vim.lsp.enable(\'fsrb\') finds no config', { "put the plugin's folder (editors/nvim) on 'runtimepath'" })
    end
    if client.managed_by_enable() then
      ok("vim.lsp.enable('fsrb') starts the client")
      local cfg = vim.lsp.config[opt.name] or {}
      if type(cfg.filetypes) == 'table' then
        warn("vim.lsp.config('fsrb') sets `filetypes`: vim.lsp.enable then detaches the client from the files patches edit, and the server sees them from disk only", {
          'leave `filetypes` out (lsp/fsrb.lua starts the client for patch buffers only); use vim.g.fsrb = { markdown = true } for Markdown',
        })
      end
    else
      info("the plugin starts the client (vim.lsp.enable('fsrb') would do it instead; :help fsrb-lsp-enable)")
    end
  end

  -- The server: what a patch buffer would start.
  local cmd = client.server_cmd()
  if type(cmd) == 'function' then
    ok('server: an RPC function (vim.lsp.config), not looked up')
  elseif not client.executable() then
    error(client.not_executable(), { 'put fsrb-lsp on $PATH, or give its full path as the first word of `cmd`' })
  else
    local path = vim.fn.exepath(cmd[1])
    local out = vim.fn.system({ path, '--version' })
    if vim.v.shell_error == 0 then
      ok(string.format('server: %s (%s)', path, vim.trim(out)))
    else
      error(string.format("server: '%s --version' failed (exit %d): %s", path, vim.v.shell_error, vim.trim(out)), { 'reinstall it: `go install github.com/fsrb/fsrb/cmd/fsrb-lsp@latest`' })
    end
  end

  local clients = client.clients()
  if #clients == 0 then
    info('no fsrb client is running (open a *.fsrb file)')
  end
  for _, c in ipairs(clients) do
    local n = vim.tbl_count(c.attached_buffers or {})
    ok(string.format('client %d running, root %s, %d buffer(s)', c.id, tostring(c.config.root_dir), n))
  end
  -- Each open patch should have its client: one without is a patch the
  -- server never sees (no diagnostics, no lenses, no :Fsrb).
  local patches, served = 0, 0
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and config.served(b) then
      patches = patches + 1
      if #client.clients(b) > 0 then
        served = served + 1
      else
        warn(string.format('patch buffer %d (%s) has no fsrb client attached', b, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':~:.')),
          { 'see the errors above; :Fsrb restart starts it again' })
      end
    end
  end
  if patches > 0 then
    local line = string.format('%d of %d open patch buffer(s) attached to an fsrb client', served, patches)
    if served == patches then
      ok(line)
    else
      info(line)
    end
  end

  if vim.fn.has('nvim-0.12') == 1 then
    ok('Neovim 0.12: code lenses as virtual lines above each block; vim.diagnostic.open_float() lists the places of an ambiguous block (related information, `gf` jumps)')
  else
    info('code lenses at the end of the line; Neovim 0.12 shows them as virtual lines above each block, and the places of an ambiguous block in the diagnostic float')
  end
  local chats = config.chat_filetypes(opt)
  info(#chats > 0 and ('chat answer buffers served (filetypes): ' .. table.concat(chats, ', ') .. ' (:help fsrb-chat)')
    or 'no chat answer buffers served (`chat = false`; :help fsrb-chat)')
  info(':Fsrb apply | apply-block [N] | skip [N] | include [N] | revert | revert-block [N] | status | paste [REG] | log | restart; the old :FsrbApplyAll etc. still work and say once they are deprecated')
  if vim.fn.has('nvim-0.8') == 0 then
    info('Neovim 0.7: the plugin makes the folder of a renamed file before applying an edit, and drops the extra empty last line 0.7 leaves in a new file')
  end
  info('LSP log: ' .. client.log_path())
end

return M
