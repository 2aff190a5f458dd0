CREATE TABLE "webhook_configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"exchange_account_id" integer NOT NULL,
	"name" text NOT NULL,
	"symbol" text,
	"default_amount" numeric(30, 10) NOT NULL,
	"max_amount" numeric(30, 10),
	"leverage" integer NOT NULL,
	"allowed_actions" jsonb NOT NULL,
	"allow_pyramiding" boolean DEFAULT false NOT NULL,
	"max_signal_age" integer NOT NULL,
	"ip_allowlist" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"key_hash" text NOT NULL,
	"key_hint" text NOT NULL,
	"key_created_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_executions" (
	"id" serial PRIMARY KEY NOT NULL,
	"signal_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"action" text NOT NULL,
	"side" text NOT NULL,
	"quantity" numeric(30, 10) NOT NULL,
	"filled_quantity" numeric(30, 10) DEFAULT '0' NOT NULL,
	"price" numeric(30, 10),
	"fee" numeric(30, 10) DEFAULT '0' NOT NULL,
	"leverage" integer NOT NULL,
	"status" text NOT NULL,
	"error_kind" text,
	"error" text,
	"intent_key" text NOT NULL,
	"exchange_order_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"filled_at" timestamp with time zone,
	"receive_to_fill_ms" integer
);
--> statement-breakpoint
CREATE TABLE "webhook_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"config_id" integer,
	"config_name" text,
	"signal_id" integer,
	"level" text NOT NULL,
	"event" text NOT NULL,
	"message" text NOT NULL,
	"source_ip" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_signals" (
	"id" serial PRIMARY KEY NOT NULL,
	"config_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"message" text,
	"error_kind" text,
	"action" text,
	"symbol" text,
	"amount" numeric(30, 10),
	"price" numeric(30, 10),
	"external_id" text,
	"signal_time" timestamp with time zone,
	"dedupe_key" text,
	"body_hash" text NOT NULL,
	"source_ip" text NOT NULL,
	"raw_body" text NOT NULL,
	"raw_body_truncated" boolean DEFAULT false NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"steps" jsonb NOT NULL,
	"total_latency_ms" integer,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "webhook_configs" ADD CONSTRAINT "webhook_configs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_configs" ADD CONSTRAINT "webhook_configs_exchange_account_id_exchange_accounts_id_fk" FOREIGN KEY ("exchange_account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_executions" ADD CONSTRAINT "webhook_executions_signal_id_webhook_signals_id_fk" FOREIGN KEY ("signal_id") REFERENCES "public"."webhook_signals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_executions" ADD CONSTRAINT "webhook_executions_config_id_webhook_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."webhook_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_executions" ADD CONSTRAINT "webhook_executions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_logs" ADD CONSTRAINT "webhook_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_logs" ADD CONSTRAINT "webhook_logs_config_id_webhook_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."webhook_configs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_logs" ADD CONSTRAINT "webhook_logs_signal_id_webhook_signals_id_fk" FOREIGN KEY ("signal_id") REFERENCES "public"."webhook_signals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_signals" ADD CONSTRAINT "webhook_signals_config_id_webhook_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."webhook_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_signals" ADD CONSTRAINT "webhook_signals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_configs_key_hash_unique" ON "webhook_configs" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "webhook_configs_user_idx" ON "webhook_configs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "webhook_configs_account_idx" ON "webhook_configs" USING btree ("exchange_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_executions_intent_unique" ON "webhook_executions" USING btree ("config_id","intent_key");--> statement-breakpoint
CREATE INDEX "webhook_executions_user_idx" ON "webhook_executions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_executions_signal_idx" ON "webhook_executions" USING btree ("signal_id");--> statement-breakpoint
CREATE INDEX "webhook_logs_user_idx" ON "webhook_logs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_logs_config_idx" ON "webhook_logs" USING btree ("config_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_signals_dedupe_unique" ON "webhook_signals" USING btree ("config_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "webhook_signals_user_idx" ON "webhook_signals" USING btree ("user_id","received_at");--> statement-breakpoint
CREATE INDEX "webhook_signals_config_idx" ON "webhook_signals" USING btree ("config_id","received_at");--> statement-breakpoint
CREATE INDEX "webhook_signals_body_idx" ON "webhook_signals" USING btree ("config_id","body_hash","received_at");--> statement-breakpoint
CREATE INDEX "webhook_signals_pending_idx" ON "webhook_signals" USING btree ("id") WHERE status in ('received', 'validated', 'intent', 'placed');