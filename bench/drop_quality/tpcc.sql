-- The schema and rows of tpcc.lua's TPC-C-like workload (bench/drop_quality/record_diagnosis.sh):
-- TPC-C's nine tables with the columns its transactions touch, 2 warehouses x 10 districts x 3,000
-- customers, 100,000 items and their stock in each warehouse, 1,000 orders a district of 10 lines
-- each (the last 300 undelivered, in new_orders). Made with MariaDB's sequence engine (seq_1_to_N).
CREATE DATABASE tpcc;
USE tpcc;
CREATE TABLE warehouse (w_id INT PRIMARY KEY, w_name VARCHAR(10), w_tax DECIMAL(4, 4), w_ytd DECIMAL(12, 2));
CREATE TABLE district (d_w_id INT, d_id INT, d_name VARCHAR(10), d_tax DECIMAL(4, 4), d_ytd DECIMAL(12, 2),
  d_next_o_id INT, PRIMARY KEY (d_w_id, d_id));
CREATE TABLE customer (c_w_id INT, c_d_id INT, c_id INT, c_last VARCHAR(16), c_credit CHAR(2),
  c_discount DECIMAL(4, 4), c_balance DECIMAL(12, 2), c_ytd_payment DECIMAL(12, 2), c_payment_cnt INT,
  c_delivery_cnt INT, c_data VARCHAR(500), PRIMARY KEY (c_w_id, c_d_id, c_id));
CREATE TABLE history (h_id BIGINT AUTO_INCREMENT PRIMARY KEY, h_c_id INT, h_c_d_id INT, h_c_w_id INT, h_d_id INT,
  h_w_id INT, h_date DATETIME, h_amount DECIMAL(6, 2), h_data VARCHAR(24));
CREATE TABLE item (i_id INT PRIMARY KEY, i_name VARCHAR(24), i_price DECIMAL(5, 2), i_data VARCHAR(50));
CREATE TABLE stock (s_w_id INT, s_i_id INT, s_quantity INT, s_ytd INT, s_order_cnt INT, s_data VARCHAR(50),
  PRIMARY KEY (s_w_id, s_i_id));
CREATE TABLE orders (o_w_id INT, o_d_id INT, o_id INT, o_c_id INT, o_entry_d DATETIME, o_carrier_id INT,
  o_ol_cnt INT, PRIMARY KEY (o_w_id, o_d_id, o_id), KEY by_customer (o_w_id, o_d_id, o_c_id, o_id));
CREATE TABLE new_orders (no_w_id INT, no_d_id INT, no_o_id INT, PRIMARY KEY (no_w_id, no_d_id, no_o_id));
CREATE TABLE order_line (ol_w_id INT, ol_d_id INT, ol_o_id INT, ol_number INT, ol_i_id INT, ol_quantity INT,
  ol_amount DECIMAL(8, 2), ol_delivery_d DATETIME, PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number));
INSERT INTO warehouse SELECT seq, CONCAT('w', seq), 0.1, 300000 FROM seq_1_to_2;
INSERT INTO district SELECT w.seq, d.seq, CONCAT('d', d.seq), 0.1, 30000, 1001 FROM seq_1_to_2 w, seq_1_to_10 d;
INSERT INTO customer SELECT w.seq, d.seq, c.seq, CONCAT('last', c.seq % 1000), IF(c.seq % 10 = 0, 'BC', 'GC'),
  0.05, -10, 10, 1, 0, REPEAT('x', 300) FROM seq_1_to_2 w, seq_1_to_10 d, seq_1_to_3000 c;
INSERT INTO item SELECT seq, CONCAT('item', seq), 1 + seq % 100, REPEAT('i', 40) FROM seq_1_to_100000;
INSERT INTO stock SELECT w.seq, i.seq, 10 + i.seq % 90, 0, 0, REPEAT('s', 50) FROM seq_1_to_2 w, seq_1_to_100000 i;
INSERT INTO orders SELECT w.seq, d.seq, o.seq, 1 + (o.seq * 7) % 3000, NOW(), IF(o.seq <= 700, 1 + o.seq % 10, NULL), 10
  FROM seq_1_to_2 w, seq_1_to_10 d, seq_1_to_1000 o;
INSERT INTO new_orders SELECT w.seq, d.seq, o.seq FROM seq_1_to_2 w, seq_1_to_10 d, seq_701_to_1000 o;
INSERT INTO order_line SELECT w.seq, d.seq, o.seq, l.seq, 1 + (o.seq * 31 + l.seq * 7919) % 100000, 5,
  IF(o.seq <= 700, 0, 10.5), IF(o.seq <= 700, NOW(), NULL)
  FROM seq_1_to_2 w, seq_1_to_10 d, seq_1_to_1000 o, seq_1_to_10 l;
