local M = {}

function M.start(opts)
  return opts.port
--       ^ chain: function M.start
--       ^ describe: function M.start
end

local function helper(x)
  return x + 1
--       ^ chain: function helper
end

return M
