-- :Fsrb paste [register]: a patch copied from anywhere (a chat in a
-- browser, a message) opened as a patch buffer that is never a file. It is
-- served like a chat answer (lua/fsrb/chat.lua) with the filetype fsrb.
local M = {}

local function notify(msg, level)
  vim.notify('fsrb: ' .. msg, level or vim.log.levels.INFO)
end

local function read_register(reg)
  local ok, text = pcall(vim.fn.getreg, reg)
  if not ok or type(text) ~= 'string' then
    return ''
  end
  return text
end

local count = 0

--- Opens the text of register reg (default '+', the clipboard) in a new
--- scratch patch buffer in the current window: served like a *.fsrb file,
--- never written. The clipboard empty or unavailable (no provider, as on
--- a headless machine): the unnamed register, with a message.
function M.open(reg)
  reg = (reg == nil or reg == '') and '+' or reg
  local text = ''
  if (reg == '+' or reg == '*') and vim.fn.has('clipboard') == 0 then
    notify(string.format('no clipboard here (:checkhealth provider); pasting the unnamed register "" instead of "%s', reg), vim.log.levels.WARN)
    reg = '"'
  else
    text = read_register(reg)
    if text == '' and (reg == '+' or reg == '*') then
      notify(string.format('register "%s is empty; pasting the unnamed register "" instead', reg), vim.log.levels.WARN)
      reg = '"'
    end
  end
  if reg == '"' then
    text = read_register(reg)
  end
  if text == '' then
    notify(string.format('register "%s is empty: nothing to paste', reg), vim.log.levels.ERROR)
    return nil
  end
  local lines = vim.split(text, '\n', { plain = true })
  if #lines > 1 and lines[#lines] == '' then
    table.remove(lines) -- the register's last line break
  end
  local b = vim.api.nvim_create_buf(true, true)
  vim.bo[b].bufhidden = 'hide'
  vim.b[b].fsrb_paste = true
  -- A name that is not a file: the server needs one for the URI
  -- (lua/fsrb/chat.lua), and :w refuses a nofile buffer whatever its name.
  repeat
    count = count + 1
  until vim.fn.bufnr(string.format('^\\[fsrb paste\\] %d$', count)) == -1
  vim.api.nvim_buf_set_name(b, string.format('[fsrb paste] %d', count))
  vim.api.nvim_buf_set_lines(b, 0, -1, false, lines)
  vim.api.nvim_set_current_buf(b)
  vim.bo[b].filetype = 'fsrb' -- starts the plugin, attaches the client
  return b
end

return M
