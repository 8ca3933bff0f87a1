-- A TPC-C-like transaction mix for sysbench 1.0 (bench/drop_quality/record_diagnosis.sh, workload
-- `tpcc`): the five transactions of TPC-C on its nine tables (schema and rows: tpcc.sql), in the
-- standard's shares (new order 45 %, payment 43 %, order status, delivery and stock level 4 % each),
-- customers and items drawn with its NURand skew. Not a TPC-C implementation (no think times, no
-- terminals, no result checks): the workload shape of the labelled TPC-C anomaly study (one event
-- is one transaction; district and warehouse rows hot, row-lock waits and deadlocks of its own).
-- While the file HOT_FLAG exists every transaction turns to warehouse 1, district 1 (the study's
-- lock contention: the mix moved to one warehouse and district). Nothing else starts.
--   sysbench bench/drop_quality/tpcc.lua --mysql-db=tpcc [--warehouses=2] --threads=8 run
sysbench.cmdline.options = {
   warehouses = { "Warehouses in the schema (tpcc.sql makes 2)", 2 },
   items = { "Items in the schema", 100000 },
   customers = { "Customers per district", 3000 },
}

-- hot_flag.lua beside this script
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local is_hot = require("hot_flag")
local R = sysbench.rand.uniform
local con

function thread_init()
   con = sysbench.sql.driver():connect()
end

function thread_done()
   con:disconnect()
end

local function q(sql, ...)
   return con:query(string.format(sql, ...))
end

local function row(sql, ...)
   return con:query_row(string.format(sql, ...))
end

-- TPC-C's non-uniform random number (clause 2.1.6), the constant C fixed
local function nurand(a, x, y)
   return (bit.bor(R(0, a), R(x, y)) + 42) % (y - x + 1) + x
end

local function where()
   if is_hot() then
      return 1, 1
   end
   return R(1, sysbench.opt.warehouses), R(1, 10)
end

local function customer()
   return nurand(1023, 1, sysbench.opt.customers)
end

local function new_order()
   local w, d = where()
   local c, cnt = customer(), R(5, 15)
   q("BEGIN")
   row("SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse"
      .. " WHERE w_id = %d AND c_w_id = w_id AND c_d_id = %d AND c_id = %d", w, d, c)
   local o_id = tonumber(row("SELECT d_next_o_id FROM district WHERE d_w_id = %d AND d_id = %d FOR UPDATE", w, d))
   q("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = %d AND d_id = %d", w, d)
   q("INSERT INTO orders (o_w_id, o_d_id, o_id, o_c_id, o_entry_d, o_ol_cnt) VALUES (%d, %d, %d, %d, NOW(), %d)",
      w, d, o_id, c, cnt)
   q("INSERT INTO new_orders VALUES (%d, %d, %d)", w, d, o_id)
   local items = {}
   for i = 1, cnt do
      items[i] = nurand(8191, 1, sysbench.opt.items)
   end
   table.sort(items) -- stock rows locked in one order: fewer deadlocks, as the kits do
   for i, item in ipairs(items) do
      local qty = R(1, 10)
      local price = row("SELECT i_price FROM item WHERE i_id = %d", item)
      row("SELECT s_quantity, s_data FROM stock WHERE s_w_id = %d AND s_i_id = %d FOR UPDATE", w, item)
      q("UPDATE stock SET s_quantity = IF(s_quantity > %d + 10, s_quantity - %d, s_quantity + 91 - %d),"
         .. " s_ytd = s_ytd + %d, s_order_cnt = s_order_cnt + 1 WHERE s_w_id = %d AND s_i_id = %d",
         qty, qty, qty, qty, w, item)
      q("INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_quantity, ol_amount)"
         .. " VALUES (%d, %d, %d, %d, %d, %d, %d * %s)", w, d, o_id, i, item, qty, qty, price or "1")
   end
   q("COMMIT")
end

local function payment()
   local w, d = where()
   local c, amount = customer(), R(100, 500000) / 100
   q("BEGIN")
   q("UPDATE warehouse SET w_ytd = w_ytd + %.2f WHERE w_id = %d", amount, w)
   q("UPDATE district SET d_ytd = d_ytd + %.2f WHERE d_w_id = %d AND d_id = %d", amount, w, d)
   row("SELECT c_balance, c_credit FROM customer WHERE c_w_id = %d AND c_d_id = %d AND c_id = %d FOR UPDATE", w, d, c)
   q("UPDATE customer SET c_balance = c_balance - %.2f, c_ytd_payment = c_ytd_payment + %.2f,"
      .. " c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = %d AND c_d_id = %d AND c_id = %d", amount, amount, w, d, c)
   q("INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)"
      .. " VALUES (%d, %d, %d, %d, %d, NOW(), %.2f, 'payment')", c, d, w, d, w, amount)
   q("COMMIT")
end

local function order_status()
   local w, d = where()
   local c = customer()
   q("BEGIN")
   row("SELECT c_balance, c_last FROM customer WHERE c_w_id = %d AND c_d_id = %d AND c_id = %d", w, d, c)
   local o_id = row("SELECT o_id FROM orders WHERE o_w_id = %d AND o_d_id = %d AND o_c_id = %d"
      .. " ORDER BY o_id DESC LIMIT 1", w, d, c)
   if o_id then
      row("SELECT COUNT(*), SUM(ol_amount) FROM order_line WHERE ol_w_id = %d AND ol_d_id = %d AND ol_o_id = %s",
         w, d, o_id)
   end
   q("COMMIT")
end

local function delivery()
   local w = where()
   local carrier = R(1, 10)
   q("BEGIN")
   for d = 1, 10 do
      local o_id = row("SELECT no_o_id FROM new_orders WHERE no_w_id = %d AND no_d_id = %d"
         .. " ORDER BY no_o_id LIMIT 1 FOR UPDATE", w, d)
      if o_id then
         q("DELETE FROM new_orders WHERE no_w_id = %d AND no_d_id = %d AND no_o_id = %s", w, d, o_id)
         local c = row("SELECT o_c_id FROM orders WHERE o_w_id = %d AND o_d_id = %d AND o_id = %s", w, d, o_id)
         q("UPDATE orders SET o_carrier_id = %d WHERE o_w_id = %d AND o_d_id = %d AND o_id = %s", carrier, w, d, o_id)
         q("UPDATE order_line SET ol_delivery_d = NOW() WHERE ol_w_id = %d AND ol_d_id = %d AND ol_o_id = %s",
            w, d, o_id)
         local total = row("SELECT COALESCE(SUM(ol_amount), 0) FROM order_line"
            .. " WHERE ol_w_id = %d AND ol_d_id = %d AND ol_o_id = %s", w, d, o_id)
         q("UPDATE customer SET c_balance = c_balance + %s, c_delivery_cnt = c_delivery_cnt + 1"
            .. " WHERE c_w_id = %d AND c_d_id = %d AND c_id = %s", total, w, d, c or "0")
      end
   end
   q("COMMIT")
end

local function stock_level()
   local w, d = where()
   q("BEGIN")
   local next_o = tonumber(row("SELECT d_next_o_id FROM district WHERE d_w_id = %d AND d_id = %d", w, d))
   row("SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = %d AND ol_d_id = %d"
      .. " AND ol_o_id BETWEEN %d AND %d AND s_w_id = %d AND s_i_id = ol_i_id AND s_quantity < %d",
      w, d, next_o - 20, next_o - 1, w, R(10, 20))
   q("COMMIT")
end

function event()
   local x = R(1, 100)
   if x <= 45 then
      new_order()
   elseif x <= 88 then
      payment()
   elseif x <= 92 then
      order_status()
   elseif x <= 96 then
      delivery()
   else
      stock_level()
   end
end
