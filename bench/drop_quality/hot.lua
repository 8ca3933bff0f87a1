-- sysbench oltp_read_write whose ids all fall on the first HOT_ROWS rows (default 1) of its first
-- table while the file HOT_FLAG exists (bench/drop_quality/disturb.sh hot-rows): the benchmark's own
-- transactions turn to a few rows and wait on each other's row locks, as the TPC-C study's lock
-- contention did (its transaction mix moved to one warehouse and district). Nothing else starts.
--   HOT_FLAG=/tmp/hot.flag sysbench bench/drop_quality/hot.lua [oltp_read_write options] run
require("oltp_read_write")

-- hot_flag.lua beside this script
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local is_hot = require("hot_flag")
local rows = tonumber(os.getenv("HOT_ROWS") or "1")
local default, uniform = sysbench.rand.default, sysbench.rand.uniform

-- oltp_common.lua's get_id() reads sysbench.rand.default at each call, and each statement's table
-- is sysbench.rand.uniform(1, tables)
sysbench.rand.default = function(lo, hi)
   if is_hot() then
      return uniform(lo, math.min(hi, lo + rows - 1))
   end
   return default(lo, hi)
end
sysbench.rand.uniform = function(lo, hi)
   if lo == 1 and hi == sysbench.opt.tables and hi > 1 and is_hot() then
      return 1
   end
   return uniform(lo, hi)
end

-- while hot, a transaction updates its hot row first and holds that row's lock through the rest
-- of its statements, as a TPC-C new order holds its district's row (oltp_read_write updates last)
local read_write = event
function event()
   if not is_hot() then
      return read_write()
   end
   if not sysbench.opt.skip_trx then
      begin()
   end
   execute_index_updates()
   execute_point_selects()
   if sysbench.opt.range_selects then
      execute_simple_ranges()
      execute_sum_ranges()
      execute_order_ranges()
      execute_distinct_ranges()
   end
   execute_non_index_updates()
   execute_delete_inserts()
   if not sysbench.opt.skip_trx then
      commit()
   end
end
