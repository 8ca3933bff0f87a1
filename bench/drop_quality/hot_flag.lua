-- Whether the file HOT_FLAG exists, looked at once a second per thread (an open() per call would be
-- the benchmark's work): hot.lua and tpcc.lua turn their transactions to a few rows while it does
-- (bench/drop_quality/disturb.sh hot-rows creates and removes it).
local flag = os.getenv("HOT_FLAG") or ""
local checked, hot = -1, false

return function()
   local now = os.time()
   if now ~= checked then
      checked = now
      local f = flag ~= "" and io.open(flag, "r")
      hot = f and true or false
      if f then
         f:close()
      end
   end
   return hot
end
