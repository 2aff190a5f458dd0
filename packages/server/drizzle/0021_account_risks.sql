CREATE TABLE "account_risks" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"max_order_notional" numeric(30, 10),
	"max_open_notional" numeric(30, 10),
	"daily_loss_limit_pct" numeric(6, 2),
	"trailing_drawdown_pct" numeric(6, 2),
	"on_breach" text DEFAULT 'halt' NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"state_reason" text,
	"peak_equity" numeric(30, 10),
	"day_open_equity" numeric(30, 10),
	"day_started_at" timestamp with time zone,
	"since" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_risks" ADD CONSTRAINT "account_risks_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_risks" ADD CONSTRAINT "account_risks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;