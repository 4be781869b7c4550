-- Patches that are never files: the answer buffers of chat plugins
-- (codecompanion.nvim, avante.nvim, CopilotChat.nvim, and the filetypes of
-- `chat_filetypes`) and the buffers of :Fsrb paste (lua/fsrb/paste.lua).
-- Both are scratch buffers (buftype=nofile), which Neovim never writes and
-- vim.lsp.enable never attaches: the plugin attaches them itself.
--
-- The server sees such a buffer under the URI Neovim gives it (its name
-- under the working directory, a file that does not exist) with the
-- language id `markdown` for a chat answer: the server analyzes it as a
-- Markdown answer, resolves its paths against the client's root, and
-- applying writes the files it names, never the buffer.
local M = {}

local config = require('fsrb.config')
-- (lua/fsrb/client.lua requires this module: it is looked up when called.)

-- The chat plugins whose answer buffers are served unless `chat = false`
-- (lua/fsrb/config.lua).
M.known = config.chat_plugins

--- The filetypes of the chat buffers served: the known plugins' (unless
--- `chat = false`) and `chat_filetypes`; cfg defaults to the options in
--- force.
function M.filetypes(cfg)
  return config.chat_filetypes(cfg)
end

--- Whether bufnr is a chat answer buffer the plugin serves.
function M.is_chat(bufnr)
  return vim.tbl_contains(M.filetypes(), vim.bo[bufnr].filetype)
end

--- Whether bufnr is a served patch that is never written: a chat answer
--- or a :Fsrb paste buffer.
function M.is_scratch(bufnr)
  return vim.b[bufnr].fsrb_paste == true or M.is_chat(bufnr)
end

--- The language id the client sends for bufnr: a chat answer is Markdown
--- whatever its plugin calls its filetype.
function M.language_id(bufnr, filetype)
  if M.is_chat(bufnr) then
    return 'markdown'
  end
  return filetype
end

-- Neovim's client names a buffer by its current name in every
-- notification and never tells the server of a rename: codecompanion
-- renames its buffer to the chat's title, avante names its buffer only
-- when it shows it. So the buffer leaves the server before a rename and
-- comes back under its new name after.
local watched = {}

local function detach(bufnr)
  if not vim.lsp.buf_detach_client then
    return
  end
  for _, c in ipairs(require('fsrb.client').clients(bufnr)) do
    vim.lsp.buf_detach_client(bufnr, c.id)
  end
  vim.b[bufnr].fsrb_served = nil
end

local function watch(bufnr)
  if watched[bufnr] then
    return
  end
  watched[bufnr] = true
  local group = vim.api.nvim_create_augroup('fsrb_scratch_' .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd('BufFilePre', {
    group = group,
    buffer = bufnr,
    callback = function()
      detach(bufnr)
    end,
    desc = 'fsrb: a chat buffer leaves the server under its old name',
  })
  vim.api.nvim_create_autocmd('BufFilePost', {
    group = group,
    buffer = bufnr,
    callback = function()
      if M.is_scratch(bufnr) and vim.api.nvim_buf_get_name(bufnr) ~= '' then
        require('fsrb.client').attach(bufnr)
      end
    end,
    desc = 'fsrb: a chat buffer comes back under its new name',
  })
  vim.api.nvim_create_autocmd({ 'BufWipeout', 'BufDelete' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      watched[bufnr] = nil
      pcall(vim.api.nvim_del_augroup_by_id, group)
    end,
    desc = 'fsrb: forget a chat buffer',
  })
end

--- The one chat answer or pasted patch shown in a window of the current
--- tab page and served, or nil (none, or several): what :Fsrb apply works
--- on from another buffer, such as avante's input window.
function M.shown()
  local found
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local b = vim.api.nvim_win_get_buf(w)
    if b ~= found and M.is_scratch(b) and vim.b[b].fsrb_served then
      if found then
        return nil
      end
      found = b
    end
  end
  return found
end

local told = {}

--- Called by attach() for a scratch buffer: false while it has no name
--- yet (avante names its buffer after setting its filetype; the server
--- would get a URI without a path), which then attaches when it gets one.
--- False too for a name that is an existing file or folder (a chat
--- titled "README.md"): the server would take the answer for that file's
--- text, and edit the answer when a patch edits the file.
function M.ready(bufnr)
  watch(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return false
  end
  if vim.fn.filereadable(name) == 1 or vim.fn.isdirectory(name) == 1 then
    if not told[name] then
      told[name] = true
      vim.notify(string.format("fsrb: chat buffer %d is named like the file '%s': not served until it is renamed", bufnr, vim.fn.fnamemodify(name, ':~:.')), vim.log.levels.WARN)
    end
    return false
  end
  return true
end

return M
