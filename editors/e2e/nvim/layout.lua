-- The plugin's layout, run by editors/e2e/nvim.sh with each Neovim before
-- the scenarios (FSRB_PLUGIN: the plugin's folder, editors/nvim):
--   - no module under lua/fsrb requires 'fsrb' (lua/fsrb/init.lua, the
--     public face that delegates to them) or reaches it through
--     package.loaded: the modules depend on each other, never on it;
--   - lua/fsrb/config.lua requires no module of the plugin, and loaded
--     alone it loads none (the leaf every module requires);
--   - each module loaded alone leaves 'fsrb' unloaded;
--   - no module assigns to a field of `vim` other than options and
--     variables (vim.o, vim.bo, vim.g, vim.b, ...): a plugin sets up its own
--     client, and never replaces a handler or a function of Neovim's.
-- The source is read with its comments and strings told apart, so that
-- the doc comments naming require('fsrb') do not count.
-- Exit: 0 passed, 1 a check failed, 2 a Lua error.
local here = debug.getinfo(1, 'S').source:sub(2):match('(.*/)')
local lib = dofile(here .. 'check-lib.lua')
local run = lib.new('layout')
local check = run.check

-- code returns src with its comments blanked out (strings kept), so that
-- a match in it is code.
local function code(src)
  local out, i, n = {}, 1, #src
  while i <= n do
    local c = src:sub(i, i)
    local long = src:match('^%[(=*)%[', i)
    if src:sub(i, i + 1) == '--' then
      local eq = src:match('^%-%-%[(=*)%[', i)
      local stop
      if eq then
        local _, e = src:find(']' .. eq .. ']', i, true)
        stop = e or n
      else
        stop = (src:find('\n', i, true) or n + 1) - 1
      end
      table.insert(out, (src:sub(i, stop):gsub('[^\n]', ' ')))
      i = stop + 1
    elseif long then
      local _, e = src:find(']' .. long .. ']', i, true)
      e = e or n
      table.insert(out, src:sub(i, e))
      i = e + 1
    elseif c == '"' or c == "'" then
      local j = i + 1
      while j <= n do
        local d = src:sub(j, j)
        if d == '\\' then
          j = j + 1
        elseif d == c or d == '\n' then
          break
        end
        j = j + 1
      end
      table.insert(out, src:sub(i, j))
      i = j + 1
    else
      table.insert(out, c)
      i = i + 1
    end
  end
  return table.concat(out)
end

-- The lines of text matching pattern, as "name:line: text".
local function matches(name, text, pattern)
  local found, lnum = {}, 0
  for line in (text .. '\n'):gmatch('([^\n]*)\n') do
    lnum = lnum + 1
    if line:find(pattern) then
      table.insert(found, string.format('%s:%d: %s', name, lnum, vim.trim(line)))
    end
  end
  return found
end

-- Options and variables: what a plugin may set.
local settable = { 'o', 'bo', 'wo', 'go', 'g', 'b', 'w', 't', 'v', 'env', 'opt', 'opt_local', 'opt_global' }

-- The target of an assignment statement to a field of `vim` in line (as
-- "lsp.handlers"), or nil.
local function vim_target(line)
  local target, rest = line:match('^%s*vim%.([%w_%.]*)(.*)$')
  if not target then
    return nil
  end
  while true do
    local after = rest:match('^%b[](.*)$') or rest:match('^%.[%w_]+(.*)$')
    if not after then
      break
    end
    rest = after
  end
  if rest:find('^%s*=[^=]') or rest:find('^%s*=$') then
    return target
  end
  return nil
end

-- The assignments to a field of `vim` that is not an option or a variable.
local function replaces(name, text)
  local found, lnum = {}, 0
  for line in (text .. '\n'):gmatch('([^\n]*)\n') do
    lnum = lnum + 1
    local target = vim_target(line)
    if target then
      local head = target:match('^[%w_]+') or target
      if not vim.tbl_contains(settable, head) then
        table.insert(found, string.format('%s:%d: %s', name, lnum, vim.trim(line)))
      end
    end
  end
  return found
end

local function modules_of(dir)
  local mods = {}
  for _, path in ipairs(vim.fn.glob(dir .. '/lua/fsrb/*.lua', false, true)) do
    table.insert(mods, { name = vim.fn.fnamemodify(path, ':t:r'), path = path })
  end
  table.sort(mods, function(a, b)
    return a.name < b.name
  end)
  return mods
end

local function fsrb_loaded()
  local out = {}
  for name in pairs(package.loaded) do
    if name == 'fsrb' or vim.startswith(name, 'fsrb.') then
      table.insert(out, name)
    end
  end
  table.sort(out)
  return out
end

local function unload()
  for _, name in ipairs(fsrb_loaded()) do
    package.loaded[name] = nil
  end
end

run.finish(function()
  local plugin = assert(os.getenv('FSRB_PLUGIN'), 'FSRB_PLUGIN: the plugin folder (editors/nvim)')
  local mods = modules_of(plugin)
  check(#mods > 1 and vim.tbl_contains(vim.tbl_map(function(m) return m.name end, mods), 'config'),
    'lua/fsrb holds config.lua and the other modules', plugin)

  for _, m in ipairs(mods) do
    if m.name ~= 'init' then
      local text = code(lib.read(m.path))
      local back = matches(m.name .. '.lua', text, 'require%s*%(?%s*([\'"])fsrb%1')
      vim.list_extend(back, matches(m.name .. '.lua', text, 'package%.loaded%s*%[%s*([\'"])fsrb%1%s*%]'))
      vim.list_extend(back, matches(m.name .. '.lua', text, 'package%.loaded%.fsrb%f[^%w_]'))
      check(#back == 0, string.format("lua/fsrb/%s.lua does not require 'fsrb'", m.name), table.concat(back, '; '))
    end
    if m.name == 'config' then
      local text = code(lib.read(m.path))
      local uses = matches('config.lua', text, 'require%s*%(?%s*[\'"]fsrb[\'".]')
      vim.list_extend(uses, matches('config.lua', text, 'package%.loaded%s*%[%s*[\'"]fsrb'))
      vim.list_extend(uses, matches('config.lua', text, 'package%.loaded%.fsrb'))
      check(#uses == 0, 'lua/fsrb/config.lua requires no module of the plugin', table.concat(uses, '; '))
    end
  end
  local set = {}
  for _, dir in ipairs({ 'lua/fsrb', 'plugin', 'lsp' }) do
    for _, path in ipairs(vim.fn.glob(plugin .. '/' .. dir .. '/*.lua', false, true)) do
      vim.list_extend(set, replaces(path:sub(#plugin + 2), code(lib.read(path))))
    end
  end
  check(#set == 0, 'no module replaces a field of vim (only options and variables are set)', table.concat(set, '; '))

  -- Loaded one by one, as a fresh session would.
  vim.opt.runtimepath:prepend(plugin)
  unload()
  local ok_config, err_config = pcall(require, 'fsrb.config')
  local loaded = fsrb_loaded()
  check(ok_config and #loaded == 1, "require('fsrb.config') loads no other module of the plugin",
    ok_config and table.concat(loaded, ', ') or tostring(err_config))
  for _, m in ipairs(mods) do
    if m.name ~= 'init' then
      unload()
      local ok, err = pcall(require, 'fsrb.' .. m.name)
      check(ok and package.loaded['fsrb'] == nil, string.format("require('fsrb.%s') leaves 'fsrb' unloaded", m.name),
        ok and table.concat(fsrb_loaded(), ', ') or tostring(err))
    end
  end
  unload()
end)
