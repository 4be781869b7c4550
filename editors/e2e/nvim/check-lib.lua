-- What the e2e scripts (runner.lua, newcomer.lua, chat.lua) share, loaded
-- with dofile: a log line stamped with the time since the script started,
-- checks that keep their failures, the end of a run (exit 0 passed, 1 a
-- check failed, 2 a Lua error), and the helpers every script asks:
-- Neovim's version, a file's bytes, the code lenses a buffer holds.
-- Runs on Neovim 0.7, 0.10 and 0.12 alike.
local M = {}

local uv = vim.uv or vim.loop

-- A run whose log lines read "[tag  123ms] ...".
function M.new(tag)
  local t0 = uv.hrtime()
  local run = { failed = {} }
  function run.ms()
    return math.floor((uv.hrtime() - t0) / 1e6)
  end
  function run.log(fmt, ...)
    io.stdout:write(string.format('[' .. tag .. ' %5dms] ' .. fmt, run.ms(), ...) .. '\n')
  end
  function run.check(cond, what, detail)
    if cond then
      run.log('ok   %s', what)
    else
      table.insert(run.failed, what)
      run.log('FAIL %s%s', what, detail and (': ' .. detail) or '')
    end
    return cond
  end
  -- finish runs main and quits Neovim with the run's exit code; the
  -- failed checks are named again at the end, where CI shows the output.
  function run.finish(main)
    local ok, err = xpcall(main, debug.traceback)
    if not ok then
      run.log('ERROR %s', tostring(err))
      vim.cmd('cquit 2')
    elseif #run.failed > 0 then
      run.log('%d check(s) failed: %s', #run.failed, table.concat(run.failed, '; '))
      vim.cmd('cquit 1')
    else
      run.log('all checks passed')
      vim.cmd('qall!')
    end
  end
  return run
end

function M.has(v)
  return vim.fn.has('nvim-' .. v) == 1
end

function M.read(path)
  local f = io.open(path, 'rb')
  if not f then
    return nil
  end
  local s = f:read('*a')
  f:close()
  return s
end

function M.write(path, s)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  local f = assert(io.open(path, 'wb'))
  f:write(s)
  f:close()
end

-- The code lenses Neovim holds for buf (0.12: get{bufnr=} gives
-- {client_id, lens} items).
function M.lenses(buf)
  if M.has('0.12') then
    local out = {}
    for _, item in ipairs(vim.lsp.codelens.get({ bufnr = buf }) or {}) do
      table.insert(out, item.lens)
    end
    return out
  end
  return vim.lsp.codelens.get(buf) or {}
end

-- The titles of buf's lenses, joined by " | ".
function M.titles(buf)
  local t = {}
  for _, l in ipairs(M.lenses(buf)) do
    table.insert(t, l.command and l.command.title or '?')
  end
  return table.concat(t, ' | ')
end

return M
