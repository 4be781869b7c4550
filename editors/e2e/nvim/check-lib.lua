-- What the e2e scripts (runner.lua, newcomer.lua, chat.lua, answers.lua) share, loaded
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

-- What answers.lua and chat.lua share: the chat buffers they stream into,
-- and the workspace they reset between runs.

-- The workspace ws back to its "before" state (files copied from the
-- folder before), no buffer of a file under ws left.
function M.reset(ws, files, before)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(b)
    if vim.startswith(name, ws .. '/') and vim.bo[b].buftype == '' then
      vim.cmd('silent! bwipeout! ' .. b)
    end
  end
  for _, f in ipairs(files) do
    M.write(ws .. '/' .. f, M.read(before .. '/' .. f))
  end
end

-- Asks the plugin for buf's lenses where Neovim does not (before 0.12).
function M.refresh(buf)
  if not M.has('0.12') then
    require('fsrb').refresh_lenses(buf)
  end
end

-- buf's diagnostics (of severity, or all) as "line: message" strings.
function M.diagnostics(buf, severity)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf, severity and { severity = severity } or nil)) do
    table.insert(out, string.format('%d: %s', d.lnum + 1, d.message))
  end
  return out
end

-- The answer in chunks of n bytes, cut anywhere (mid-line, mid-marker).
function M.chunks(text, n)
  local out = {}
  for i = 1, #text, n do
    table.insert(out, text:sub(i, i + n - 1))
  end
  return out
end

-- Appends s at the end of buf, as codecompanion and CopilotChat do.
function M.append(buf, s)
  local last = vim.api.nvim_buf_line_count(buf) - 1
  local col = #vim.api.nvim_buf_get_lines(buf, last, last + 1, false)[1]
  vim.api.nvim_buf_set_text(buf, last, col, last, col, vim.split(s, '\n', { plain = true }))
end

-- codecompanion's chat buffer, asked question: make() returns it, listed,
-- named "[CodeCompanion] N"; write(b, chunk) appends a chunk with the
-- buffer modifiable only meanwhile, as the plugin does.
function M.codecompanion(question)
  return {
    make = function()
      local b = vim.api.nvim_create_buf(true, true)
      vim.api.nvim_buf_set_name(b, string.format('[CodeCompanion] %d', b))
      vim.api.nvim_buf_set_lines(b, 0, -1, false, { '## Me', '', question, '', '## CodeCompanion (Copilot)', '', '' })
      vim.api.nvim_set_current_buf(b)
      vim.bo[b].filetype = 'codecompanion'
      return b
    end,
    write = function(b, chunk)
      vim.bo[b].modifiable = true
      M.append(b, chunk)
      vim.bo[b].modifiable = false
    end,
  }
end

-- Wipes buf once the client is done with it: Neovim 0.7 draws code lenses
-- that arrive for a buffer gone with an error.
function M.wipe(buf)
  vim.wait(300)
  vim.cmd('silent! bwipeout! ' .. buf)
end

-- The count of "Apply all blocks" among buf's code actions.
function M.apply_all_offered(buf)
  local n = vim.api.nvim_buf_line_count(buf)
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = n - 1, character = 0 } },
    context = { diagnostics = {} },
  }, 5000)
  local all = 0
  for _, r in pairs(res or {}) do
    for _, a in ipairs(r.result or {}) do
      if vim.startswith(a.title, 'Apply all blocks') then
        all = all + 1
      end
    end
  end
  return all
end

return M
