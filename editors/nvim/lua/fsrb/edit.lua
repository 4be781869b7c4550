-- Workspace edits, applied the way the plugin applies the server's
-- workspace/applyEdit (the fsrb client's own handler, lua/fsrb/client.lua):
-- Neovim's applier, with the new files kept in buffers until written and
-- the folders Neovim 0.7 does not make made first.
local M = {}

local uv = vim.uv or vim.loop -- vim.loop is deprecated from 0.10 on
local ondisk = require('fsrb.ondisk')

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function mkdir_p(dir)
  if dir == nil or dir == '' or exists(dir) then
    return true
  end
  return vim.fn.mkdir(dir, 'p') == 1
end

--- Prepares a WorkspaceEdit for Neovim's applier and returns the files it
--- creates. A new file becomes a buffer, not a file: Neovim's applier
--- would write it empty to disk at once, and an Apply discarded with :qa!
--- would leave it there. Its text edits land in that buffer, which :w or
--- :wall writes, creating its folder then. A CreateFile with
--- ignoreIfExists of a folder that exists is dropped (the server sends one
--- of the workspace folder to VS Code only; Neovim would only add a
--- buffer named after the folder). Renames get their folder first (Neovim
--- 0.7 does not make it, and the whole edit fails).
function M.prepare_edit(edit)
  local created = {}
  local changes = (edit or {}).documentChanges
  if not changes then
    return created
  end
  local kept = {}
  for _, change in ipairs(changes) do
    local keep = true
    if change.kind == 'create' then
      local opts = change.options or {}
      local fname = vim.uri_to_fname(change.uri)
      if opts.ignoreIfExists and not opts.overwrite and vim.fn.isdirectory(fname) == 1 then
        keep = false
      elseif not exists(fname) then
        keep = false
        local b = vim.fn.bufadd(fname)
        vim.fn.bufload(b)
        vim.bo[b].buflisted = true
        created[fname] = b
      end
    elseif change.kind == 'rename' then
      mkdir_p(vim.fn.fnamemodify(vim.uri_to_fname(change.newUri), ':h'))
    end
    if keep then
      table.insert(kept, change)
    end
  end
  if #kept < #changes then
    edit.documentChanges = kept
  end
  return created
end

--- After the edit, for each file it created (a buffer): marked modified,
--- so that :wall writes it even empty, with its folder made on that write;
--- and "text\n" inserted into the empty buffer holds the lines {text, ''},
--- which would be written as "text\n\n" (Neovim 0.7): that last empty
--- line is dropped, or, for content without a final line break, no line
--- break is written.
function M.finish_edit(created)
  for fname, bufnr in pairs(created or {}) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      local n = vim.api.nvim_buf_line_count(bufnr)
      local last = vim.api.nvim_buf_get_lines(bufnr, n - 1, n, false)[1]
      if n > 1 and last == '' then
        vim.api.nvim_buf_set_lines(bufnr, n - 1, n, false, {})
      elseif last ~= '' then
        vim.bo[bufnr].eol = false
        vim.bo[bufnr].fixeol = false
      end
      vim.bo[bufnr].modified = true
      vim.api.nvim_create_autocmd('BufWritePre', {
        buffer = bufnr,
        once = true,
        callback = function()
          mkdir_p(vim.fn.fnamemodify(fname, ':h'))
        end,
        desc = 'fsrb: the folder of a file an edit created, made when it is written',
      })
    end
  end
end

--- Applies a WorkspaceEdit the way the plugin does for the server's
--- workspace/applyEdit: Neovim's own applier between the two steps above.
function M.apply_workspace_edit(edit, offset_encoding)
  local created = M.prepare_edit(edit)
  vim.lsp.util.apply_workspace_edit(edit, offset_encoding or 'utf-16')
  M.finish_edit(created)
  ondisk.sync_targets() -- the buffers of the files it created or loaded
  pcall(vim.api.nvim_exec_autocmds, 'User', { pattern = 'FsrbEditApplied', modeline = false })
end

return M
