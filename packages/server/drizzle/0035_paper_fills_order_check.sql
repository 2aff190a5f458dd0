ALTER TABLE "paper_fills" DROP CONSTRAINT "paper_fills_order_id_paper_orders_id_fk";
